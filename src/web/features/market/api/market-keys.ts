/** Query keys of market data (token stats for the ticker and hero, the SOL price for payments). */
export const marketKeys = {
  all: ['market'] as const,
  tokenStats: () => [...marketKeys.all, 'token-stats'] as const,
  solPrice: () => [...marketKeys.all, 'sol-price'] as const,
};
