import { Images } from 'lucide-react';
import { Link } from 'react-router';
import type { Product } from '#common/schemas/product';
import { isSoldOut } from '#common/catalog';
import { paths } from '#web/config/paths';
import { Price } from './price';
import { ProductImage } from './product-image';
import { LowStockNote } from './stock-notes';

/** Router state a card puts on /products/<id>: closing the modal can then go back instead of forward. */
export interface OpenedFromShopState {
  openedFromShop: true;
}

const CARD_IMAGE_SIZES = '(min-width: 1280px) 296px, (min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw';

/**
 * A product in the grid (spec §2): photo, title, price, description, '+N more' when it has several
 * photos, a 'Sold Out' overlay at quantity 0 and 'Only N left in stock!' at 1 to 5. The title is a
 * link to the product's own URL that covers the card, so the whole card opens the modal.
 */
export function ProductCard({ product }: { product: Product }) {
  const [first] = product.images;
  const extraImages = product.images.length - 1;
  const soldOut = isSoldOut(product.quantity);
  const state: OpenedFromShopState = { openedFromShop: true };
  return (
    <article className="group relative flex w-full flex-col">
      <div className="relative aspect-[3/4] overflow-hidden rounded-2xl bg-stone-100">
        {first ? (
          <ProductImage
            image={first}
            alt={product.title}
            sizes={CARD_IMAGE_SIZES}
            className="transition-transform duration-500 ease-out group-hover:scale-[1.03]"
          />
        ) : null}
        {extraImages > 0 ? (
          <span className="absolute top-3 left-3 inline-flex items-center gap-1 rounded-full bg-white/90 px-2.5 py-1 text-[11px] font-medium text-stone-700 shadow-sm backdrop-blur">
            <Images className="size-3" aria-hidden="true" />+{extraImages} more
          </span>
        ) : null}
        {soldOut ? (
          <div className="absolute inset-0 flex items-center justify-center bg-white/55 backdrop-grayscale">
            <span className="rounded-full bg-stone-950 px-4 py-1.5 text-sm font-semibold tracking-wide text-white">
              Sold Out
            </span>
          </div>
        ) : null}
      </div>
      <div className="mt-4 flex flex-1 flex-col">
        <p className="text-[11px] font-semibold tracking-[0.14em] text-stone-500 uppercase">
          {product.brand}
        </p>
        <h3 className="mt-1.5 text-[15px] leading-snug font-medium text-stone-950">
          <Link
            to={paths.product.getHref(product.id)}
            state={state}
            preventScrollReset
            className="rounded-sm outline-offset-4 after:absolute after:inset-0 after:rounded-2xl after:content-['']"
          >
            {product.title}
          </Link>
        </h3>
        <div className="mt-1.5">
          <Price priceCents={product.priceCents} originalPriceCents={product.originalPriceCents} />
        </div>
        <LowStockNote quantity={product.quantity} className="mt-1.5 text-[13px]" />
        {product.description ? (
          <p className="mt-2 line-clamp-2 text-[13px] leading-relaxed text-stone-500">
            {product.description}
          </p>
        ) : null}
      </div>
    </article>
  );
}
