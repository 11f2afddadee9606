import { cn } from '#web/lib/cn';
import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';

/**
 * A data table in a white card. On narrow screens it scrolls sideways inside its card (the page
 * itself never does); the scroll region is focusable and named so keyboard users can scroll it.
 */
export function Table({
  children,
  label,
  className,
  minWidth = '40rem',
}: {
  children: ReactNode;
  /** Accessible name of the table (and its scroll region). */
  label: string;
  className?: string;
  /** Below this width the table scrolls instead of squeezing its columns. */
  minWidth?: string;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cn(
        'overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80',
        className,
      )}
    >
      <table aria-label={label} className="w-full border-collapse text-left text-sm" style={{ minWidth }}>
        {children}
      </table>
    </div>
  );
}

export function TableHead({ children }: { children: ReactNode }) {
  return (
    <thead className="border-b border-stone-200/80 bg-stone-50/70 text-xs font-medium text-stone-500">
      {children}
    </thead>
  );
}

export function TableBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-stone-100">{children}</tbody>;
}

export function TableRow({ children, className }: { children: ReactNode; className?: string }) {
  return <tr className={cn('transition-colors hover:bg-stone-50/60', className)}>{children}</tr>;
}

export function Th({ className, children, scope = 'col', ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th scope={scope} className={cn('px-4 py-3 font-medium whitespace-nowrap', className)} {...props}>
      {children}
    </th>
  );
}

export function Td({ className, children, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={cn('px-4 py-3.5 align-middle text-stone-700', className)} {...props}>
      {children}
    </td>
  );
}
