/** Query keys of the settings screen. */
export const settingsKeys = {
  all: ['admin', 'settings'] as const,
};
