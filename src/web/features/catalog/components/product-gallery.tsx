import { cn } from '#web/lib/cn';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import type { ProductImage as ProductImageData } from '#common/schemas/product';
import { ProductImage } from './product-image';

const MAIN_SIZES = '(min-width: 1024px) 480px, (min-width: 640px) 50vw, 100vw';

const navButton =
  'absolute top-1/2 inline-flex size-10 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-stone-800 shadow-md ring-1 ring-stone-900/5 backdrop-blur transition-colors hover:bg-white hover:text-stone-950';

/**
 * The modal's photos (spec §2): one large photo with previous / next buttons (wrapping around) and
 * the thumbnails in a 4-column grid. Only the first photo loads eagerly.
 */
export function ProductGallery({ images, title }: { images: ProductImageData[]; title: string }) {
  const [index, setIndex] = useState(0);
  const count = images.length;
  const current = Math.min(index, count - 1);
  const image = images[current];
  const go = (delta: number) => setIndex((current + delta + count) % count);

  return (
    <div>
      <div className="relative aspect-[3/4] overflow-hidden rounded-2xl bg-stone-100">
        {image ? (
          <ProductImage
            key={image.url}
            image={image}
            alt={count > 1 ? `${title}, photo ${current + 1} of ${count}` : title}
            sizes={MAIN_SIZES}
            isPriority={current === 0}
          />
        ) : null}
        {count > 1 ? (
          <>
            <button
              type="button"
              onClick={() => go(-1)}
              aria-label="Previous image"
              className={cn(navButton, 'left-3')}
            >
              <ChevronLeft className="size-5" aria-hidden="true" />
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              aria-label="Next image"
              className={cn(navButton, 'right-3')}
            >
              <ChevronRight className="size-5" aria-hidden="true" />
            </button>
            <p className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-stone-950/70 px-2.5 py-1 text-[11px] font-medium text-white tabular-nums">
              {current + 1} / {count}
            </p>
          </>
        ) : null}
      </div>
      {count > 1 ? (
        <ul aria-label="Photos" className="mt-3 grid grid-cols-4 gap-2.5">
          {images.map((thumb, i) => (
            <li key={thumb.url}>
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`Show photo ${i + 1} of ${count}`}
                aria-current={i === current || undefined}
                className={cn(
                  'block aspect-[3/4] w-full overflow-hidden rounded-xl bg-stone-100 ring-2 ring-offset-2 transition',
                  i === current ? 'ring-stone-950' : 'opacity-70 ring-transparent hover:opacity-100',
                )}
              >
                <ProductImage image={thumb} alt="" sizes="120px" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
