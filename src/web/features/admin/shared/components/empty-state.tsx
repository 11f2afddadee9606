import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A calm "nothing here" block for lists and tables. */
export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center justify-center px-6 py-14 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-rose-50 text-rose-600">
        <Icon className="size-5.5" strokeWidth={1.75} aria-hidden="true" />
      </span>
      <p className="mt-4 text-sm font-medium text-stone-900">{title}</p>
      {children ? <div className="mt-1 max-w-sm text-sm text-stone-500">{children}</div> : null}
    </div>
  );
}
