/** Query keys of the analytics screen (server-side aggregates over orders). */
export const analyticsKeys = {
  all: ['admin', 'analytics'] as const,
};
