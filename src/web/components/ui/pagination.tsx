import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

export interface PaginationProps {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Matching rows, or null when the server did not count them. */
  total: number | null;
  hasMore: boolean;
  /** What is counted, e.g. 'orders'. */
  noun?: string;
  onPageChange: (page: number) => void;
  isBusy?: boolean;
}

/** Previous / next with "Page x of y" (or "Page x" when uncounted); hidden when one page holds all. */
export function Pagination({
  page,
  pageSize,
  total,
  hasMore,
  noun = 'results',
  onPageChange,
  isBusy,
}: PaginationProps) {
  if (page <= 1 && !hasMore) return null;
  const pageCount = total === null ? null : Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Pagination" className="mt-6 flex items-center justify-between gap-3">
      <p className="text-sm text-stone-500" aria-live="polite">
        Page <span className="font-medium text-stone-900 tabular-nums">{page}</span>
        {pageCount !== null ? (
          <>
            {' '}
            of <span className="font-medium text-stone-900 tabular-nums">{pageCount}</span>
          </>
        ) : null}
        {total !== null ? (
          <span className="hidden sm:inline">
            {' '}
            · {total.toLocaleString('en-US')} {noun}
          </span>
        ) : null}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => onPageChange(page - 1)}
          disabled={page <= 1 || isBusy}
          aria-label="Previous page"
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
          <span className="hidden sm:inline">Previous</span>
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onPageChange(page + 1)}
          disabled={!hasMore || isBusy}
          aria-label="Next page"
        >
          <span className="hidden sm:inline">Next</span>
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
