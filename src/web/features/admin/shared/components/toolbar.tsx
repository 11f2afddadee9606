import { cn } from '#web/lib/cn';
import type { ReactNode } from 'react';

/** The filter row above a list: wraps on small screens, one line on wide ones. */
export function Toolbar({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('mb-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center', className)}>
      {children}
    </div>
  );
}
