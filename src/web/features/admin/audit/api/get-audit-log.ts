import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AuditEntry, type AuditEntryPage } from '#common/schemas/admin-audit';
import { apiClient } from '#web/lib/api-client';
import { auditKeys, type AuditFilters } from './audit-keys';

/** GET /api/admin/audit: newest first, searched and filtered by action on the server. */
export function getAuditLog(filters: AuditFilters, signal?: AbortSignal): Promise<AuditEntryPage> {
  return apiClient.get<AuditEntryPage>(ADMIN_API.audit, {
    query: {
      search: filters.search,
      action: filters.action === 'all' ? undefined : filters.action,
      page: filters.page,
    },
    signal,
  });
}

export function auditLogQueryOptions(filters: AuditFilters) {
  return queryOptions({
    queryKey: auditKeys.list(filters),
    queryFn: ({ signal }) => getAuditLog(filters, signal),
  });
}

export function useAuditLog(filters: AuditFilters) {
  return useQuery({ ...auditLogQueryOptions(filters), placeholderData: keepPreviousData });
}

function matches(entry: AuditEntry, filters: AuditFilters): boolean {
  if (filters.page !== 1) return false;
  if (filters.action !== 'all' && filters.action !== entry.action) return false;
  if (filters.search === '') return true;
  const needle = filters.search.toLowerCase();
  return `${entry.action} ${JSON.stringify(entry.details)}`.toLowerCase().includes(needle);
}

/**
 * A new entry announced live: put it at the top of every loaded first page it belongs on, at once
 * (the refetch the event also triggers then confirms it).
 */
export function prependAuditEntry(queryClient: QueryClient, entry: AuditEntry): void {
  for (const [key, page] of queryClient.getQueriesData<AuditEntryPage>({ queryKey: auditKeys.lists() })) {
    const filters = key[3] as AuditFilters | undefined;
    if (!page || !filters || !matches(entry, filters)) continue;
    if (page.items.some((e) => e.id === entry.id)) continue;
    queryClient.setQueryData<AuditEntryPage>(key, {
      ...page,
      items: [entry, ...page.items],
      total: page.total === null ? null : page.total + 1,
    });
  }
}
