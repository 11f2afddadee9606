import { isAddress } from '@solana/kit';
import { z } from 'zod';
import { optionalString } from './config-fields';

/**
 * The Solana part of the server's settings: the cluster or the local demo ledger, the shop's token,
 * wallets and keys, the airdrops, the payment watcher and the local ledger's /local-chain limits.
 * Read from the environment by config.ts only (its EnvSchema spreads SolanaEnvSchema's shape).
 */

/** A Solana address (base58 of 32 bytes), when set. */
const solanaAddress = optionalString.refine(
  (v) => v === undefined || isAddress(v),
  'is not a Solana address',
);

export const SolanaEnvSchema = z.object({
  /** Solana JSON-RPC of a real cluster; unset = the local demo ledger (see LOCAL_LEDGER) or no crypto. */
  SOLANA_RPC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /**
   * The local demo ledger (play money, a faucet and a demo wallet anyone may use), when SOLANA_RPC_URL
   * is unset: `demo` runs it, `off` never; unset runs it only on a configuration that does not look
   * like a live shop (see demoLedgerOf).
   */
  LOCAL_LEDGER: optionalString.pipe(z.enum(['demo', 'off']).optional()),
  /** Mint address of the shop's SPL token (AELO) on that cluster; the local ledger makes its own. */
  TOKEN_MINT: solanaAddress,
  /** The shop's receiving wallet on that cluster (crypto payments and token sales are paid to it). */
  SHOP_WALLET: solanaAddress,
  /**
   * The treasury's key that sells AELO through Buy Token on that cluster (a 64-byte Solana CLI key
   * as a JSON array, or base58); unset = Buy Token is off there. The local ledger has its own.
   */
  TREASURY_SECRET_KEY: optionalString,
  /** The same key from a file (a Solana CLI keypair JSON), instead of TREASURY_SECRET_KEY. */
  TREASURY_KEY_FILE: optionalString,
  /**
   * The shop wallet's key on that cluster (SHOP_WALLET's, same formats as TREASURY_SECRET_KEY): signs
   * crypto refunds back to the paying wallet. Unset = an admin signs each refund with a connected wallet.
   */
  SHOP_WALLET_SECRET_KEY: optionalString,
  /** The same key from a file (a Solana CLI keypair JSON), instead of SHOP_WALLET_SECRET_KEY. */
  SHOP_WALLET_KEY_FILE: optionalString,
  /** The daily top-50 airdrop's time of day, UTC (HH:MM). */
  AIRDROP_DAILY_UTC_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC)')
    .default('12:00'),
  /** Owners never airdropped to (liquidity pools, exchanges), comma-separated; the treasury and shop wallet always are. */
  AIRDROP_EXCLUDED_WALLETS: optionalString.refine(
    (v) =>
      v === undefined ||
      v
        .split(/[\s,]+/)
        .filter(Boolean)
        .every((a) => isAddress(a)),
    'must be Solana addresses, comma-separated',
  ),
  /** Priority fee of airdrop transactions, in micro-lamports per compute unit (0 = none). */
  AIRDROP_PRIORITY_FEE_MICROLAMPORTS: z.coerce.number().int().min(0).max(10_000_000).default(0),
  /** SOL transfers per airdrop transaction. */
  AIRDROP_BATCH_SIZE: z.coerce.number().int().min(1).max(20).default(8),
  /** How often the airdrop scheduler looks for due work (0 = never: only Process Airdrop runs one). */
  AIRDROP_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /** Which cluster SOLANA_RPC_URL serves: names the wallet chain and the explorer's cluster. */
  SOLANA_CLUSTER: z.enum(['mainnet-beta', 'devnet', 'testnet']).default('mainnet-beta'),
  /** How often the payment watcher looks for awaited crypto payments on the chain. */
  PAYMENT_WATCH_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** How long after its expiry a crypto payment is still looked for (a late payment is refunded). */
  LATE_PAYMENT_WATCH_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  /**
   * The local ledger's JSON-RPC (/local-chain) for its clients, per client (an IPv6 client by its
   * /64) and minute: calls (each call of a batch counts), and among them sends (sendTransaction,
   * simulateTransaction), faucet requests (requestAirdrop) and account listings (getProgramAccounts,
   * getTokenAccountsByOwner, getTokenLargestAccounts); past one, 429. The shop's own use is not limited.
   */
  LOCAL_CHAIN_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(600),
  LOCAL_CHAIN_SENDS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(60),
  LOCAL_CHAIN_AIRDROPS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(10),
  LOCAL_CHAIN_SCANS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(60),
  /** One /local-chain request: calls in a batch (413 above); accounts and account data its answers may hold. */
  LOCAL_CHAIN_MAX_BATCH: z.coerce.number().int().min(1).max(1000).default(20),
  LOCAL_CHAIN_MAX_ACCOUNTS_PER_REQUEST: z.coerce.number().int().min(1).max(10_000_000).default(2000),
  LOCAL_CHAIN_MAX_DATA_PER_REQUEST_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1_000_000_000)
    .default(4 * 1024 * 1024),
  /**
   * The ledger's websocket (ws://host/local-chain): sockets one client (an IPv6 client by its /64,
   * its /56 at IPV6_NETWORK_LIMIT_MULTIPLIER times) may hold open (the upgrade past them: 429), and
   * subscriptions one socket may hold (past them: a JSON-RPC error). web3.js opens one per Connection.
   */
  LOCAL_CHAIN_MAX_SOCKETS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(20),
  LOCAL_CHAIN_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce.number().int().min(1).max(100_000).default(100),
});

export type SolanaEnv = z.infer<typeof SolanaEnvSchema>;

/** The settings of the rest of the environment that demoLedgerOf looks at. */
type LiveShopEnv = {
  PUBLIC_URL?: string | undefined;
  DATABASE_URL?: string | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  SMTP_URL?: string | undefined;
};

/** Why the local demo ledger runs: LOCAL_LEDGER=demo, or unset on a configuration that looks like no live shop. */
export type DemoLedgerMode = 'opted-in' | 'automatic';

/**
 * The settings that make a configuration look like a live shop: an https PUBLIC_URL, a PostgreSQL
 * database, Stripe keys, outgoing mail. Such a shop never runs the demo ledger by itself, whatever
 * NODE_ENV: its faucet and its demo wallet's key are open to anyone, so goods would ship for play money.
 */
export function liveShopSettings(env: LiveShopEnv): string[] {
  const found: string[] = [];
  if (env.PUBLIC_URL?.startsWith('https:')) found.push('PUBLIC_URL (https)');
  if (env.DATABASE_URL) found.push('DATABASE_URL');
  if (env.STRIPE_SECRET_KEY) found.push('STRIPE_SECRET_KEY');
  if (env.STRIPE_WEBHOOK_SECRET) found.push('STRIPE_WEBHOOK_SECRET');
  if (env.SMTP_URL) found.push('SMTP_URL');
  return found;
}

/**
 * Whether the local demo ledger runs, and why (or what turned it off). With SOLANA_RPC_URL the shop
 * is paid on that cluster; without it: LOCAL_LEDGER=demo runs the ledger, `off` never does, and unset
 * it runs only when nothing looks live (`npm start` on an empty configuration: a newcomer's shop
 * takes SOL and AELO out of the box, every page saying it is a demo).
 */
export function demoLedgerOf(env: SolanaEnv & LiveShopEnv): {
  mode: DemoLedgerMode | null;
  offBy: string | null;
} {
  if (env.SOLANA_RPC_URL) return { mode: null, offBy: null };
  if (env.LOCAL_LEDGER === 'demo') return { mode: 'opted-in', offBy: null };
  if (env.LOCAL_LEDGER === 'off') return { mode: null, offBy: 'LOCAL_LEDGER=off' };
  const live = liveShopSettings(env);
  return live.length === 0 ? { mode: 'automatic', offBy: null } : { mode: null, offBy: live.join(', ') };
}

/** config.solana: the cluster (or the local demo ledger, as demoLedgerOf decided) and what is paid on it. */
export function solanaConfigOf(env: SolanaEnv, ledger: ReturnType<typeof demoLedgerOf>) {
  return {
    rpcUrl: env.SOLANA_RPC_URL,
    /** The in-process demo ledger runs (its /local-chain, faucet and demo wallet with it). */
    localLedger: ledger.mode !== null,
    /** Why it runs: LOCAL_LEDGER=demo, or automatically on a configuration that looks like no live shop. */
    demoLedger: ledger.mode,
    /** What turned it off without SOLANA_RPC_URL (LOCAL_LEDGER=off, or the live-looking settings); else null. */
    demoLedgerOffBy: ledger.offBy,
    cluster: ledger.mode !== null ? ('local' as const) : env.SOLANA_CLUSTER,
    /** On a real cluster: the mint and receiving wallet (both needed for crypto payments). */
    tokenMint: env.TOKEN_MINT ?? null,
    shopWallet: env.SHOP_WALLET ?? null,
    treasurySecretKey: env.TREASURY_SECRET_KEY ?? null,
    treasuryKeyFile: env.TREASURY_KEY_FILE ?? null,
    shopWalletSecretKey: env.SHOP_WALLET_SECRET_KEY ?? null,
    shopWalletKeyFile: env.SHOP_WALLET_KEY_FILE ?? null,
    watchIntervalMs: env.PAYMENT_WATCH_INTERVAL_MS,
    lateWatchMs: Math.round(env.LATE_PAYMENT_WATCH_HOURS * 3_600_000),
  };
}

/** config.localChain: what clients may ask of the local ledger's /local-chain (local-chain-limits.ts, rpc.ts). */
export function localChainConfigOf(env: SolanaEnv & { IPV6_NETWORK_LIMIT_MULTIPLIER: number }) {
  return {
    callsPerMinute: env.LOCAL_CHAIN_CALLS_PER_MINUTE,
    sendsPerMinute: env.LOCAL_CHAIN_SENDS_PER_MINUTE,
    airdropsPerMinute: env.LOCAL_CHAIN_AIRDROPS_PER_MINUTE,
    scansPerMinute: env.LOCAL_CHAIN_SCANS_PER_MINUTE,
    networkMultiplier: env.IPV6_NETWORK_LIMIT_MULTIPLIER,
    request: {
      maxBatch: env.LOCAL_CHAIN_MAX_BATCH,
      maxAccounts: env.LOCAL_CHAIN_MAX_ACCOUNTS_PER_REQUEST,
      maxDataBytes: env.LOCAL_CHAIN_MAX_DATA_PER_REQUEST_BYTES,
    },
    /** Its websocket (local-chain-sockets.ts). */
    sockets: {
      maxPerClient: env.LOCAL_CHAIN_MAX_SOCKETS_PER_CLIENT,
      maxSubscriptionsPerSocket: env.LOCAL_CHAIN_MAX_SUBSCRIPTIONS_PER_SOCKET,
    },
  };
}

/** config.airdrops: the daily top-50 airdrop's schedule and transactions. */
export function airdropsConfigOf(env: SolanaEnv) {
  return {
    dailyUtcTime: env.AIRDROP_DAILY_UTC_TIME,
    excludedWallets: (env.AIRDROP_EXCLUDED_WALLETS ?? '').split(/[\s,]+/).filter(Boolean),
    priorityFeeMicroLamports: env.AIRDROP_PRIORITY_FEE_MICROLAMPORTS,
    batchSize: env.AIRDROP_BATCH_SIZE,
    schedulerIntervalMs: env.AIRDROP_SCHEDULER_INTERVAL_MS,
  };
}
