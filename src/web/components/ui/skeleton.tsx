import { clsx } from 'clsx';

/** A grey block where content will appear once it has loaded. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={clsx('animate-pulse rounded-lg bg-stone-200/70', className)} />;
}
