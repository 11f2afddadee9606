/**
 * The test shops pay on the local demo ledger (its faucet, its demo wallet), also where their
 * settings look like a live shop's (DATABASE_URL on PostgreSQL runs, Stripe keys, SMTP_URL), which
 * runs it only when asked (LOCAL_LEDGER=demo, src/server/config.ts); not when a test names a cluster
 * (SOLANA_RPC_URL) or sets LOCAL_LEDGER itself ('' for the automatic rule).
 */
export function demoLedgerOptIn(env: Record<string, string> = {}): Record<string, string> {
  return 'SOLANA_RPC_URL' in env || 'LOCAL_LEDGER' in env ? {} : { LOCAL_LEDGER: 'demo' };
}
