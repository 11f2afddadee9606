import { cn } from '#web/lib/cn';
import { Suspense, type ReactNode } from 'react';
import { Skeleton } from '#web/components/ui/skeleton';

export interface ChartFigureProps {
  title: string;
  titleId: string;
  description?: string;
  /** The chart itself (hidden from screen readers, who get the table). */
  children: ReactNode;
  /** The same data as a table, for screen readers. */
  table: { columns: string[]; rows: (string | number)[][] };
  height?: number;
  className?: string;
}

/**
 * A chart in a card: its heading, the chart (lazy, a skeleton while its code loads) and a
 * visually hidden table with the same figures.
 */
export function ChartFigure({
  title,
  titleId,
  description,
  children,
  table,
  height = 260,
  className,
}: ChartFigureProps) {
  return (
    <section
      aria-labelledby={titleId}
      className={cn(
        'min-w-0 rounded-2xl bg-white p-5 shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80 sm:p-6',
        className,
      )}
    >
      <h2 id={titleId} className="text-base font-semibold tracking-tight text-stone-950">
        {title}
      </h2>
      {description ? <p className="mt-0.5 text-sm text-stone-500">{description}</p> : null}
      <div className="mt-5">
        <Suspense
          fallback={
            <div style={{ height }}>
              <Skeleton className="size-full rounded-xl" />
            </div>
          }
        >
          {children}
        </Suspense>
      </div>
      {/* The wrapper hides it: a table ignores sr-only's 1 px height and would stretch the page. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              {table.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) =>
                  j === 0 ? (
                    <th key={j} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={j}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
