import type { AirdropAge } from '#common/schemas/admin-airdrops';

export interface AirdropFilters {
  search: string;
  age: 'all' | AirdropAge;
  page: number;
}

/** Query keys of the airdrops screen, under ['admin', 'airdrops'] (live topic 'admin:airdrops'). */
export const airdropKeys = {
  all: ['admin', 'airdrops'] as const,
  list: (filters: AirdropFilters) => [...airdropKeys.all, 'list', filters] as const,
  preview: () => [...airdropKeys.all, 'preview'] as const,
};
