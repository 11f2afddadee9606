/** Query keys of the checkout feature. */
export const checkoutKeys = {
  all: ['checkout'] as const,
  config: () => [...checkoutKeys.all, 'config'] as const,
  paymentStatus: (reference: string) => [...checkoutKeys.all, 'payment-status', reference] as const,
};
