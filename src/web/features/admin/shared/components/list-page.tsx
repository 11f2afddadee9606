import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Alert } from '#web/components/ui/alert';
import { Pagination } from '#web/components/ui/pagination';
import { Toolbar } from './toolbar';

/** What every admin list endpoint answers with around its items. */
export interface ListPageData {
  page: number;
  pageSize: number;
  total: number | null;
  hasMore: boolean;
}

export type ListPageProps<T> = {
  /** The search box and filters; left out, no toolbar is drawn. */
  toolbar?: ReactNode;
  /** Between the toolbar and the rows: a flash confirmation, say. */
  notice?: ReactNode;
  query: UseQueryResult<T>;
  /** The error text (the screen picks the server's message or its own). */
  error: ReactNode;
  /** Skeletons where the rows will appear. */
  loading: ReactNode;
  isEmpty: boolean;
  /** An `EmptyState`, drawn in a white card (or as it is, `emptyInCard={false}`, inside a panel). */
  empty: ReactNode;
  emptyInCard?: boolean;
  /** The pager's noun ('customers', 'entries', ...). */
  noun: string;
  onPageChange: (page: number) => void;
  /** The rows: table, cards, or both. */
  children: ReactNode;
  /** After the list, in the same block: a dialog the rows open, say. */
  after?: ReactNode;
} & PageSource<T>;

/** Where the pager's facts sit: the answer itself, or (pageOf) a part of it such as `claims`. */
type PageSource<T> = T extends ListPageData
  ? { pageOf?: (data: T) => ListPageData }
  : { pageOf: (data: T) => ListPageData };

/**
 * An admin list screen: toolbar, then the error, the loading skeletons, the empty card, or the rows
 * (dimmed while the next page loads) with the pager under them.
 */
export function ListPage<T>({
  toolbar,
  notice,
  query,
  error,
  loading,
  isEmpty,
  empty,
  emptyInCard = true,
  noun,
  onPageChange,
  children,
  after,
  pageOf,
}: ListPageProps<T>) {
  // Without pageOf, the props' type has made sure the answer itself is a page.
  const pages =
    query.data === undefined ? undefined : pageOf ? pageOf(query.data) : (query.data as ListPageData);
  return (
    <div>
      {toolbar ? <Toolbar>{toolbar}</Toolbar> : null}
      {notice}
      {query.isError ? (
        <Alert variant="error">{error}</Alert>
      ) : query.isPending ? (
        loading
      ) : isEmpty ? (
        emptyInCard ? (
          <div className="rounded-2xl bg-white ring-1 ring-stone-200/80">{empty}</div>
        ) : (
          empty
        )
      ) : (
        <div className={query.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
          {children}
          {pages ? (
            <Pagination
              page={pages.page}
              pageSize={pages.pageSize}
              total={pages.total}
              hasMore={pages.hasMore}
              noun={noun}
              onPageChange={onPageChange}
              isBusy={query.isFetching}
            />
          ) : null}
        </div>
      )}
      {after}
    </div>
  );
}

/** Loading rows in a white card, announced to screen readers by `label`. */
export function ListSkeleton({
  label,
  rows = 8,
  rowClassName,
  children,
}: {
  label: string;
  rows?: number;
  rowClassName: string;
  /** One row's skeleton shapes. */
  children: ReactNode;
}) {
  return (
    <div role="status" className="rounded-2xl bg-white p-4 ring-1 ring-stone-200/80">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={rowClassName}>
          {children}
        </div>
      ))}
    </div>
  );
}
