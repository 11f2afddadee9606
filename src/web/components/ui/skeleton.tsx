import { cn } from '#web/lib/cn';

/** A grey block where content will appear once it has loaded. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-lg bg-stone-200/70', className)} />;
}
