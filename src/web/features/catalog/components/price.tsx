import { cn } from '#web/lib/cn';
import { formatUsd } from '#common/money';

/** The price, and the struck-through original price when there is one. */
export function Price({
  priceCents,
  originalPriceCents,
  size = 'sm',
}: {
  priceCents: number;
  originalPriceCents: number | null;
  size?: 'sm' | 'lg';
}) {
  const hasOriginal = originalPriceCents !== null && originalPriceCents > priceCents;
  return (
    <p className="flex flex-wrap items-baseline gap-x-2">
      <span
        className={cn(
          'font-semibold text-stone-950 tabular-nums',
          size === 'lg' ? 'text-2xl tracking-tight' : 'text-[15px]',
        )}
      >
        {hasOriginal ? <span className="sr-only">Price </span> : null}
        {formatUsd(priceCents)}
      </span>
      {hasOriginal ? (
        <s className={cn('text-stone-500 tabular-nums', size === 'lg' ? 'text-base' : 'text-sm')}>
          <span className="sr-only">Original price </span>
          {formatUsd(originalPriceCents)}
        </s>
      ) : null}
    </p>
  );
}
