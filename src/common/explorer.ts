import type { Cluster } from './schemas/chain';

/**
 * Where a signature is explained: the public explorer on a real cluster, the shop's own page
 * locally. Plain code, no zod: pages link to it without loading the schemas.
 */
export function explorerTxUrl(signature: string, cluster: Cluster): string {
  if (cluster === 'local') return `/explorer/tx/${signature}`;
  const query = cluster === 'mainnet-beta' ? '' : `?cluster=${cluster}`;
  return `https://explorer.solana.com/tx/${signature}${query}`;
}
