export interface AuditFilters {
  search: string;
  /** 'all' or an action name. */
  action: string;
  page: number;
}

/** Query keys of the audit log, under ['admin', 'audit'] (live topic 'admin:audit'). */
export const auditKeys = {
  all: ['admin', 'audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (filters: AuditFilters) => [...auditKeys.lists(), filters] as const,
  actions: () => [...auditKeys.all, 'actions'] as const,
};
