import { formatUsd } from '#common/money';
import type { ShopperOrderItem } from '#common/schemas/customer-orders';
import { cn } from '#web/lib/cn';

/** An order's lines as a shopper sees them: image, title, size · colour · quantity, line total. */
export function OrderItems({ items, size = 'md' }: { items: ShopperOrderItem[]; size?: 'sm' | 'md' }) {
  return (
    <ul className="divide-y divide-stone-100" aria-label="Items">
      {items.map((item, i) => (
        <li
          key={i}
          className={cn('flex items-center py-3 first:pt-0 last:pb-0', size === 'sm' ? 'gap-3' : 'gap-4')}
        >
          <img
            src={item.image}
            alt=""
            width={size === 'sm' ? 48 : 56}
            height={size === 'sm' ? 48 : 56}
            className={cn(
              'bg-stone-100 object-cover',
              size === 'sm' ? 'size-12 rounded-lg' : 'size-14 rounded-xl',
            )}
          />
          <div className="min-w-0 flex-1">
            <p
              className={cn(
                'truncate font-medium',
                size === 'sm' ? 'text-sm text-stone-900' : 'text-stone-950',
              )}
            >
              {item.title}
            </p>
            <p className={cn('text-stone-500', size === 'sm' ? 'text-xs' : 'text-sm')}>
              {[item.size, item.color, `Qty ${item.quantity}`].filter(Boolean).join(' · ')}
            </p>
          </div>
          <p className="text-sm font-medium text-stone-900 tabular-nums">
            {formatUsd(item.priceCents * item.quantity)}
          </p>
        </li>
      ))}
    </ul>
  );
}
