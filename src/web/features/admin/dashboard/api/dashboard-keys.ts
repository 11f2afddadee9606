/** Query keys of the dashboard: refreshed by order, product and audit events. */
export const dashboardKeys = {
  all: ['admin', 'dashboard'] as const,
};
