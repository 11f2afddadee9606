import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value';

export interface ListParams<F extends Record<string, string>> {
  /** What the search box shows, as typed. */
  searchText: string;
  setSearchText: (text: string) => void;
  /** The trimmed search, once typing has paused: what the query asks for. */
  search: string;
  filters: F;
  setFilter: <K extends keyof F>(key: K, value: F[K]) => void;
  page: number;
  setPage: (page: number) => void;
}

/**
 * A list screen's search, filters and page. A new search or filter goes back to page 1; the search
 * reaches the query debounced. `initialSearch` seeds the box (the orders screen reads ?search=).
 */
export function useListParams<F extends Record<string, string>>(
  initialFilters: F,
  { initialSearch = '' }: { initialSearch?: string } = {},
): ListParams<F> {
  const [searchText, setSearchTextState] = useState(initialSearch);
  const [filters, setFilters] = useState<F>(initialFilters);
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(searchText.trim());

  return {
    searchText,
    setSearchText: (text) => {
      setSearchTextState(text);
      setPage(1);
    },
    search,
    filters,
    setFilter: (key, value) => {
      setFilters((prev) => ({ ...prev, [key]: value }));
      setPage(1);
    },
    page,
    setPage,
  };
}
