import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '#common/schemas/admin';
import { type AuditActionList } from '#common/schemas/admin-audit';
import { apiClient } from '#web/lib/api-client';
import { auditKeys } from './audit-keys';

/** GET /api/admin/audit/actions: the known actions and any other found in the log. */
export function getAuditActions(signal?: AbortSignal): Promise<AuditActionList> {
  return apiClient.get<AuditActionList>(ADMIN_API.auditActions, { signal });
}

export function auditActionsQueryOptions() {
  return queryOptions({
    queryKey: auditKeys.actions(),
    queryFn: ({ signal }) => getAuditActions(signal),
  });
}

export function useAuditActions() {
  return useQuery(auditActionsQueryOptions());
}
