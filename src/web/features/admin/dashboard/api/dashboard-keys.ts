import { refreshOnTopic } from '../../shared/live';

/** Query keys of the dashboard: refreshed by order, product and audit events. */
export const dashboardKeys = {
  all: ['admin', 'dashboard'] as const,
};

refreshOnTopic('admin:orders', dashboardKeys.all);
refreshOnTopic('admin:products', dashboardKeys.all);
refreshOnTopic('admin:audit', dashboardKeys.all);
