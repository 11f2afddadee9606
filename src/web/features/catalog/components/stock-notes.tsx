import { cn } from '#web/lib/cn';
import { isLowStock } from '#common/catalog';

/** 'Only N left in stock!' at quantity 1 to 5 (spec §2, §9); nothing otherwise. */
export function LowStockNote({ quantity, className }: { quantity: number; className?: string }) {
  if (!isLowStock(quantity)) return null;
  return <p className={cn('font-medium text-rose-700', className)}>Only {quantity} left in stock!</p>;
}
