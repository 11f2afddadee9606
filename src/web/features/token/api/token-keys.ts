/** Query keys of the token feature. */
export const tokenKeys = {
  all: ['token'] as const,
  purchase: (reference: string) => [...tokenKeys.all, 'purchase', reference] as const,
};
