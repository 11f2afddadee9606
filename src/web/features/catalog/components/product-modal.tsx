import { cn } from '#web/lib/cn';
import { ShoppingBag, X } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { formatWeightLbs } from '#common/format';
import { formatUsd } from '#common/money';
import type { Product } from '#common/schemas/product';
import { categoryLabel, genderLabel, isSoldOut } from '#common/catalog';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { isApiError } from '#web/lib/api-client';
import { useProduct } from '../api/get-product';
import { ModalFrame } from './modal-frame';
import { Price } from './price';
import { ProductGallery } from './product-gallery';
import { SizeGuideTable } from './size-guide-table';
import { isSizeSoldOut, SizeButtons, SizeLowStockNote } from './size-options';
import { LowStockNote } from './stock-notes';
import { UNTIL_LIVE_CLASSES, useUntilLive } from '#web/lib/until-live';

export const SOLD_OUT_TEXT = 'This item is currently sold out.';

/** What Add to Cart hands on: the product and the shopper's choices ('' where it has none). */
export interface AddToCartSelection {
  product: Product;
  size: string;
  color: string;
}

const TITLE_ID = 'product-modal-title';

function CloseIcon({ onClick }: { onClick: () => void }) {
  const untilLive = useUntilLive();
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label="Close"
      {...untilLive}
      className={cn(
        'absolute top-4 right-4 z-10 inline-flex size-10 items-center justify-center rounded-full bg-white/90 text-stone-600 shadow-sm ring-1 ring-stone-900/5 backdrop-blur transition-colors hover:bg-white hover:text-stone-950 sm:top-5 sm:right-5',
        UNTIL_LIVE_CLASSES,
      )}
    >
      <X className="size-5" aria-hidden="true" />
    </button>
  );
}

function OptionGroup({ label, aside, children }: { label: string; aside?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3">
        <p id={id} className="text-sm font-medium text-stone-900">
          {label}
        </p>
        {aside}
      </div>
      <div role="group" aria-labelledby={id} className="mt-2.5">
        {children}
      </div>
    </div>
  );
}

function optionClasses(isSelected: boolean) {
  return cn(
    'h-11 rounded-xl border text-sm font-medium transition-colors',
    UNTIL_LIVE_CLASSES,
    isSelected
      ? 'border-stone-950 bg-stone-950 text-white'
      : 'border-stone-200 bg-white text-stone-800 hover:border-stone-900',
  );
}

/** The one choice when there is only one, so a one-size item needs no click. */
const only = (options: readonly string[]) => (options.length === 1 ? options[0]! : '');

function ProductDetails({
  product,
  onClose,
  onAddToCart,
}: {
  product: Product;
  onClose: () => void;
  onAddToCart: (selection: AddToCartSelection) => void;
}) {
  const [chosenSize, setSize] = useState('');
  const [chosenColor, setColor] = useState('');
  const untilLive = useUntilLive();
  const barSummaryId = useId();
  // A live update may remove an option that was chosen (or sell its size out): then it counts as
  // not chosen.
  const buyableSizes = product.sizes.filter((s) => !isSizeSoldOut(product, s));
  const size = buyableSizes.includes(chosenSize as Product['sizes'][number])
    ? chosenSize
    : only(product.sizes.length === 1 ? buyableSizes : []);
  const color = product.colors.includes(chosenColor) ? chosenColor : only(product.colors);
  const soldOut = isSoldOut(product.quantity);
  const needsSize = product.sizes.length > 0 && !size;
  const needsColor = product.colors.length > 0 && !color;
  const hint =
    needsSize && needsColor
      ? 'Choose a size and a color'
      : needsSize
        ? 'Choose a size'
        : needsColor
          ? 'Choose a color'
          : '';

  return (
    <div className="grid grid-cols-1 md:grid-cols-[minmax(0,1.05fr)_minmax(0,1fr)]">
      <CloseIcon onClick={onClose} />
      <div className="p-3 sm:p-5 md:sticky md:top-0 md:self-start md:p-6">
        <ProductGallery images={product.images} title={product.title} />
      </div>
      <div className="flex flex-col px-5 pt-3 pb-7 sm:px-8 md:py-12 md:pr-10 md:pl-4">
        <p className="text-xs font-semibold tracking-[0.16em] text-rose-600 uppercase">{product.brand}</p>
        <h2
          id={TITLE_ID}
          className="mt-2 pr-10 text-2xl leading-tight font-semibold tracking-[-0.02em] text-balance text-stone-950 sm:text-[1.75rem]"
        >
          {product.title}
        </h2>
        <div className="mt-3">
          <Price priceCents={product.priceCents} originalPriceCents={product.originalPriceCents} size="lg" />
        </div>
        <LowStockNote quantity={product.quantity} className="mt-2 text-sm" />
        {product.description ? (
          <p className="mt-5 text-[15px] leading-relaxed text-pretty text-stone-600">{product.description}</p>
        ) : null}

        {soldOut ? (
          <p
            role="status"
            className="mt-7 rounded-xl bg-stone-100 px-4 py-3.5 text-sm font-medium text-stone-700"
          >
            {SOLD_OUT_TEXT}
          </p>
        ) : (
          <div className="mt-7 space-y-6">
            {product.sizes.length > 0 ? (
              <OptionGroup
                label="Size"
                aside={size ? <span className="text-sm text-stone-500">{size}</span> : null}
              >
                <SizeButtons
                  product={product}
                  chosen={size}
                  onChoose={setSize}
                  optionClasses={optionClasses}
                />
                <SizeLowStockNote product={product} size={size} />
              </OptionGroup>
            ) : null}
            {product.colors.length > 0 ? (
              <OptionGroup
                label="Color"
                aside={color ? <span className="text-sm text-stone-500">{color}</span> : null}
              >
                <div className="flex flex-wrap gap-2">
                  {product.colors.map((c) => (
                    <button
                      key={c}
                      type="button"
                      aria-pressed={c === color}
                      onClick={() => setColor(c)}
                      {...untilLive}
                      className={cn(optionClasses(c === color), 'px-4')}
                    >
                      {c}
                    </button>
                  ))}
                </div>
              </OptionGroup>
            ) : null}
            <SizeGuideTable sizes={product.sizes} guide={product.sizeGuide} />
            <div className="hidden md:block">
              <AddToCart hint={hint} onAdd={() => onAddToCart({ product, size, color })} />
            </div>
          </div>
        )}

        <dl className="mt-8 divide-y divide-stone-100 border-t border-stone-100 text-sm">
          {[
            ['Category', categoryLabel(product.category)],
            ['Gender', genderLabel(product.gender)],
            ['Shipping weight', formatWeightLbs(product.shippingWeight)],
          ].map(([term, value]) => (
            <div key={term} className="flex justify-between gap-4 py-3">
              <dt className="text-stone-500">{term}</dt>
              <dd className="font-medium text-stone-900">{value}</dd>
            </div>
          ))}
        </dl>

        {soldOut ? null : (
          // On a phone the choice and Add to Cart stay in view while the shopper reads and scrolls.
          <div
            data-testid="add-to-cart-bar"
            className="sticky bottom-0 z-10 -mx-5 mt-6 -mb-7 border-t border-stone-200 bg-white px-5 pt-3 pb-4 shadow-[0_-8px_24px_-12px_rgb(28_25_23/0.18)] sm:-mx-8 sm:px-8 md:hidden"
          >
            <div className="mb-2.5 flex items-baseline justify-between gap-3 text-sm">
              <span id={barSummaryId} className="min-w-0 text-pretty text-stone-600">
                {hint
                  ? `${hint} to add to cart`
                  : [size && `Size ${size}`, color].filter(Boolean).join(' · ')}
              </span>
              <span className="font-semibold text-stone-950 tabular-nums">
                {formatUsd(product.priceCents)}
              </span>
            </div>
            <AddToCart
              hint={hint}
              describedBy={barSummaryId}
              onAdd={() => onAddToCart({ product, size, color })}
            />
          </div>
        )}
      </div>
    </div>
  );
}

/** Add to Cart, disabled with the reason under it until the needed options are chosen. */
function AddToCart({ hint, describedBy, onAdd }: { hint: string; describedBy?: string; onAdd: () => void }) {
  const hintId = useId();
  const untilLive = useUntilLive();
  return (
    <>
      <Button
        size="lg"
        fullWidth
        disabled={Boolean(hint)}
        aria-describedby={hint ? (describedBy ?? hintId) : undefined}
        onClick={onAdd}
        {...untilLive}
        className={cn('aria-disabled:pointer-events-auto', UNTIL_LIVE_CLASSES)}
      >
        <ShoppingBag className="size-4.5" strokeWidth={1.75} aria-hidden="true" />
        Add to Cart
      </Button>
      {hint && !describedBy ? (
        <p id={hintId} className="mt-2 text-center text-[13px] text-stone-500">
          {hint} to add this to your cart.
        </p>
      ) : null}
    </>
  );
}

function ModalSkeleton() {
  return (
    <div role="status" className="grid grid-cols-1 md:grid-cols-2">
      <h2 id={TITLE_ID} className="sr-only">
        Loading product
      </h2>
      <div className="p-3 sm:p-5 md:p-6">
        <Skeleton className="aspect-[3/4] w-full rounded-2xl" />
      </div>
      <div className="space-y-4 px-5 pt-3 pb-8 sm:px-8 md:py-12">
        <Skeleton className="h-3 w-24" />
        <Skeleton className="h-7 w-3/4" />
        <Skeleton className="h-6 w-20" />
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-11 w-full" />
      </div>
    </div>
  );
}

function ModalMessage({ title, text, onClose }: { title: string; text: string; onClose: () => void }) {
  return (
    <div className="relative px-6 py-14 text-center sm:px-10">
      <CloseIcon onClick={onClose} />
      <h2 id={TITLE_ID} className="text-xl font-semibold tracking-tight text-stone-950">
        {title}
      </h2>
      <p className="mx-auto mt-3 max-w-sm text-sm leading-relaxed text-stone-500">{text}</p>
      <Button variant="secondary" className="mt-8" onClick={onClose}>
        Back to the shop
      </Button>
    </div>
  );
}

/**
 * The product modal (spec §2): gallery, price, sizes (5 columns), colors, size guide, details,
 * and Add to Cart, which needs a size and a color where the product has them, hands the choice to
 * `onAddToCart` and closes. A sold-out product shows 'This item is currently sold out.' instead.
 * It follows live catalogue updates (its query sits under ['products']).
 */
export function ProductModal({
  productId,
  onClose,
  onAddToCart,
}: {
  productId: string | undefined;
  onClose: () => void;
  onAddToCart: (selection: AddToCartSelection) => void;
}) {
  const query = useProduct(productId);
  const product = query.data;
  const isMissing = query.isError && isApiError(query.error) && query.error.status === 404;

  const showDetails = Boolean(product) && !isMissing;
  let body: ReactNode;
  if (product && showDetails) {
    body = (
      <ProductDetails
        key={product.id}
        product={product}
        onClose={onClose}
        onAddToCart={(selection) => {
          onAddToCart(selection);
          onClose();
        }}
      />
    );
  } else if (isMissing) {
    body = (
      <ModalMessage
        title="Product not found"
        text="This product is no longer available. It may have sold and been removed from the shop."
        onClose={onClose}
      />
    );
  } else if (query.isError) {
    body = (
      <ModalMessage
        title="Something went wrong"
        text="This product could not be loaded. Please try again later."
        onClose={onClose}
      />
    );
  } else {
    body = <ModalSkeleton />;
  }

  return (
    <ModalFrame
      open={Boolean(productId)}
      onClose={onClose}
      labelledBy={TITLE_ID}
      size={showDetails || !query.isError ? 'lg' : 'sm'}
    >
      {body}
    </ModalFrame>
  );
}
