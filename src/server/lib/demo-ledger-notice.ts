/**
 * What start-up says about the local demo ledger (LOCAL_LEDGER, src/server/config.ts): a warning
 * naming the setting whenever it runs under NODE_ENV=production (its payments are not real, its faucet
 * and demo wallet are anyone's), and which setting turned it off when a configuration that looks like
 * a live shop did (crypto payments are then not configured). Nothing on a real cluster.
 */
export interface DemoLedgerNotice {
  level: 'warn' | 'info';
  message: string;
  details: Record<string, string>;
}

const REAL_CLUSTER = 'set SOLANA_RPC_URL (with TOKEN_MINT and SHOP_WALLET) to take real crypto payments';

/** The settings the notice reads (the shop's Config has them). */
export interface DemoLedgerSettings {
  env: string;
  solana: {
    /** How the demo ledger runs: opted in (LOCAL_LEDGER=demo), automatically, or not at all. */
    demoLedger: 'opted-in' | 'automatic' | null;
    /** What turned it off, when something did. */
    demoLedgerOffBy: string | null;
  };
}

export function demoLedgerNotice(config: DemoLedgerSettings): DemoLedgerNotice | null {
  const { demoLedger, demoLedgerOffBy } = config.solana;
  if (demoLedger === 'opted-in' && config.env === 'production') {
    return {
      level: 'warn',
      message: `demo ledger: payments are not real — LOCAL_LEDGER=demo runs the local ledger in production (its faucet and demo wallet are open to anyone; every page and order says it is a demo); ${REAL_CLUSTER}`,
      details: { setting: 'LOCAL_LEDGER=demo' },
    };
  }
  if (demoLedger === 'automatic' && config.env === 'production') {
    return {
      level: 'warn',
      message: `demo ledger: payments are not real — LOCAL_LEDGER is unset and nothing looks like a live shop, so the local ledger runs automatically on this empty configuration (every page and order says it is a demo); ${REAL_CLUSTER}, or LOCAL_LEDGER=off to turn crypto off`,
      details: { setting: 'LOCAL_LEDGER (unset: automatic)' },
    };
  }
  if (demoLedger === null && demoLedgerOffBy === 'LOCAL_LEDGER=off') {
    return {
      level: 'info',
      message: `demo ledger off (LOCAL_LEDGER=off): crypto payments are not configured; ${REAL_CLUSTER}`,
      details: { setting: 'LOCAL_LEDGER=off' },
    };
  }
  if (demoLedger === null && demoLedgerOffBy) {
    return {
      level: 'warn',
      message: `demo ledger off: this configuration looks like a live shop (${demoLedgerOffBy}), which never runs the local demo ledger without LOCAL_LEDGER=demo; crypto payments are not configured: ${REAL_CLUSTER}`,
      details: { setting: demoLedgerOffBy },
    };
  }
  return null;
}
