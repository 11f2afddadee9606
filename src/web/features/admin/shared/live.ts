/** `total` when known, else the rows seen so far: for counts in headings. */
export function pageCountLabel(page: { total: number | null; items: unknown[]; hasMore: boolean }): string {
  if (page.total !== null) return page.total.toLocaleString('en-US');
  return `${page.items.length}${page.hasMore ? '+' : ''}`;
}
