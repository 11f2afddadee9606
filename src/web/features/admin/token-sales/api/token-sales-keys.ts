export interface TokenSalesFilters {
  status: 'all' | 'pending' | 'completed' | 'expired';
  page: number;
}

/** Query keys of the token sales list, under ['admin', 'token-sales']. */
export const tokenSalesKeys = {
  all: ['admin', 'token-sales'] as const,
  list: (filters: TokenSalesFilters) => [...tokenSalesKeys.all, 'list', filters] as const,
};
