/** Query keys of the checkout feature. */
export const checkoutKeys = {
  all: ['checkout'] as const,
  config: () => [...checkoutKeys.all, 'config'] as const,
  paymentStatus: (reference: string, token: string | null = null) =>
    [...checkoutKeys.all, 'payment-status', reference, token] as const,
};
