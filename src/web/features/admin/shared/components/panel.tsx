import { cn } from '#web/lib/cn';
import type { ReactNode } from 'react';

/** The white card every admin section sits in, with an optional heading row. */
export function Panel({
  title,
  titleId,
  actions,
  children,
  className,
  bodyClassName,
}: {
  title?: ReactNode;
  titleId?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
}) {
  return (
    <section
      aria-labelledby={title ? titleId : undefined}
      className={cn(
        'rounded-2xl bg-white shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80',
        className,
      )}
    >
      {title ? (
        <div className="flex items-center justify-between gap-3 px-5 pt-5 sm:px-6">
          <h2 id={titleId} className="text-base font-semibold tracking-tight text-stone-950">
            {title}
          </h2>
          {actions}
        </div>
      ) : null}
      <div className={cn('p-5 sm:p-6', title && 'pt-4 sm:pt-4', bodyClassName)}>{children}</div>
    </section>
  );
}
