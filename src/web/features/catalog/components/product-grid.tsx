import { narrowsCatalogue } from '#common/catalog-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { cn } from '#web/lib/cn';
import { PackageSearch, RotateCw, X } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { ApiError } from '#web/lib/api-client';
import { Skeleton } from '#web/components/ui/skeleton';
import type { ProductFilters } from '../api/catalog-keys';
import { useProducts } from '../api/get-products';
import { ProductCard } from './product-card';
import { PRODUCTS_EMPTY_TEXT, PRODUCTS_ERROR_TEXT } from './product-texts';
import { ShowMore } from './show-more';

const gridClasses = 'grid grid-cols-2 gap-x-4 gap-y-10 sm:gap-x-6 md:grid-cols-3 lg:grid-cols-4';

function GridSkeleton() {
  return (
    <div role="status" aria-label="Loading products" className={gridClasses}>
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i}>
          <Skeleton className="aspect-[3/4] w-full rounded-2xl" />
          <Skeleton className="mt-4 h-3 w-1/3" />
          <Skeleton className="mt-2.5 h-4 w-4/5" />
          <Skeleton className="mt-2 h-4 w-1/4" />
        </div>
      ))}
    </div>
  );
}

function Message({
  tone,
  text,
  onRetry,
  action,
}: {
  tone: 'error' | 'empty';
  text: string;
  onRetry?: () => void;
  action?: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className="flex flex-col items-center rounded-3xl border border-dashed border-stone-200 px-6 py-16 text-center"
    >
      <PackageSearch className="size-8 text-stone-300" strokeWidth={1.5} aria-hidden="true" />
      <p className={cn('mt-4 text-[15px] font-medium', tone === 'error' ? 'text-red-700' : 'text-stone-700')}>
        {text}
      </p>
      {onRetry ? (
        <Button variant="outline" size="sm" className="mt-6" onClick={onRetry}>
          <RotateCw className="size-3.5" aria-hidden="true" />
          Try again
        </Button>
      ) : null}
      {action}
    </div>
  );
}

/**
 * The product grid with its loading skeleton, error and empty states (spec §2, §8). An empty
 * catalogue with no filter is the spec's load error; an empty filtered result is "no match".
 */
export function ProductGrid({ filters }: { filters: ProductFilters }) {
  const query = useProducts(filters);
  const listRef = useRef<HTMLUListElement>(null);
  // After Show more: the index of the first product it brings, focused once it is rendered (the
  // button is disabled while it loads, so focus would otherwise fall back to the page).
  const focusFrom = useRef<number | null>(null);
  const products = query.data?.pages.flatMap((page) => page.products) ?? [];
  const shown = products.length;
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || shown <= from) return;
    focusFrom.current = null;
    listRef.current?.children[from]?.querySelector<HTMLElement>('a, button')?.focus();
  }, [shown]);
  const hasFilter = narrowsCatalogue(filters);

  if (query.isPending) return <GridSkeleton />;
  if (query.isError)
    return <Message tone="error" text={PRODUCTS_ERROR_TEXT} onRetry={() => void query.refetch()} />;

  const total = query.data.pages[0]?.total ?? shown;
  if (products.length === 0) {
    return hasFilter ? (
      <Message
        tone="empty"
        text={PRODUCTS_EMPTY_TEXT}
        action={
          // A link: it works before the page is live too, and Back brings the filters again.
          <Link
            to={{ pathname: paths.home.getHref(), search: '' }}
            preventScrollReset
            className={buttonClasses({ variant: 'outline', size: 'sm', className: 'mt-6' })}
          >
            <X className="size-3.5" aria-hidden="true" />
            Clear filters
          </Link>
        }
      />
    ) : (
      <Message tone="error" text={PRODUCTS_ERROR_TEXT} onRetry={() => void query.refetch()} />
    );
  }
  const showMore = async () => {
    focusFrom.current = shown;
    const next = await query.fetchNextPage();
    // A cursor the server no longer reads (an earlier version of it made the loaded pages): those
    // pages again from the first, with fresh cursors, then the next one.
    if (next.error instanceof ApiError && next.error.fields.cursor) {
      await query.refetch();
      await query.fetchNextPage();
    }
  };
  return (
    <div aria-busy={query.isPlaceholderData || undefined}>
      <p className="sr-only" role="status">
        {productCountText(shown, total)}
      </p>
      <ul
        ref={listRef}
        aria-label="Products"
        className={cn(gridClasses, 'transition-opacity', query.isPlaceholderData && 'opacity-50')}
      >
        {products.map((product) => (
          <li key={product.id} className="flex">
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
      {query.hasNextPage || query.isFetchNextPageError ? (
        <ShowMore
          shown={shown}
          total={total}
          loading={query.isFetchingNextPage}
          failed={query.isFetchNextPageError}
          onClick={() => void showMore()}
        />
      ) : null}
    </div>
  );
}

/** "12 of 28 products" while pages remain, "28 products" when every one is shown. */
function productCountText(shown: number, total: number): string {
  const noun = total === 1 ? 'product' : 'products';
  return shown < total ? `${shown} of ${total} ${noun}` : `${total} ${noun}`;
}
