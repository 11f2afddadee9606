import { cn } from '#web/lib/cn';
import type { ProductImage as ProductImageData } from '#common/schemas/product';

/** Product photos are portrait, 3:4 (the demo photos are 1200 x 1600). */
export const PRODUCT_IMAGE_WIDTH = 1200;
export const PRODUCT_IMAGE_HEIGHT = 1600;

/**
 * One product photo: WebP variants from the API's srcset, intrinsic size for layout (no shift),
 * lazy unless it is the first thing a shopper sees (the open modal's first photo).
 */
export function ProductImage({
  image,
  alt,
  sizes,
  isPriority = false,
  className,
}: {
  image: ProductImageData;
  alt: string;
  /** The rendered width, for choosing a variant from the srcset. */
  sizes: string;
  isPriority?: boolean;
  className?: string;
}) {
  return (
    <img
      src={image.url}
      srcSet={image.srcset || undefined}
      sizes={image.srcset ? sizes : undefined}
      width={PRODUCT_IMAGE_WIDTH}
      height={PRODUCT_IMAGE_HEIGHT}
      alt={alt}
      loading={isPriority ? 'eager' : 'lazy'}
      fetchPriority={isPriority ? 'high' : 'auto'}
      decoding="async"
      className={cn('size-full object-cover', className)}
    />
  );
}
