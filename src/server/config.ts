import path from 'node:path';
import { isAddress } from '@solana/kit';
import { z } from 'zod';
import { loadOrCreateSecrets } from './config-secrets';
import { parseTrustedProxies, type TrustedProxies } from './lib/client-ip';
import { CRASH_POINTS } from './lib/crash-point';
import { projectRoot } from './lib/paths';

/**
 * The only reader of `process.env`. Everything the server can be told lives here, validated once.
 * Documented in `.env.example` and the README's configuration table.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1' || v === 'yes'));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** A Solana address (base58 of 32 bytes), when set. */
const solanaAddress = optionalString.refine(
  (v) => v === undefined || isAddress(v),
  'is not a Solana address',
);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /** Connections this process keeps to PostgreSQL (DATABASE_URL); PGlite has one. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** Where shoppers write to the shop: shown in the footer, the FAQ and the privacy policy. */
  SHOP_CONTACT_EMAIL: optionalString.pipe(z.email().optional()),
  /** Extra origins allowed to send cookie-authenticated writes (comma-separated). */
  TRUSTED_ORIGINS: optionalString,
  /** Reverse proxies whose X-Forwarded-For is believed (addresses and CIDR ranges, comma-separated). */
  TRUSTED_PROXIES: optionalString,
  ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
  ADMIN_PASSWORD: optionalString.pipe(z.string().min(8).max(128).optional()),
  AUTH_SECRET: optionalString.pipe(z.string().min(32).optional()),
  ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-f]{64}$/i, 'ENCRYPTION_KEY must be 64 hex characters (32 bytes)')
      .optional(),
  ),
  SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Failed sign-ins per email and client before each further attempt waits (doubling). */
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(1).max(10000).default(5),
  /** Failed sign-ins are forgotten this long after the last one. */
  SIGN_IN_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(900),
  /** The longest wait between two sign-in attempts after many failures. */
  SIGN_IN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(86400).default(300),
  /** Failed sign-ins of one account (from any address, in a day) before new devices need a mailed code. */
  SIGN_IN_ACCOUNT_CODE_AFTER: z.coerce.number().int().min(1).max(10000).default(10),
  /** Sign-ups one client address may make per window. */
  SIGN_UP_RATE_LIMIT: z.coerce.number().int().min(1).max(10000).default(5),
  SIGN_UP_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
  CHECKOUT_RATE_LIMIT: z.coerce.number().int().min(1).max(100000).default(20),
  CHECKOUT_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(600),
  /** Buy Token purchases one client address may start per window. */
  TOKEN_PURCHASE_RATE_LIMIT: z.coerce.number().int().min(1).max(100000).default(20),
  TOKEN_PURCHASE_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(600),
  /** What one checkout may hold: units and merchandise value (USD). */
  CHECKOUT_MAX_UNITS: z.coerce.number().int().min(1).max(10_000).default(10),
  CHECKOUT_MAX_VALUE_USD: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  /** What one client (address, signed-in user or cart) may hold at once across open checkouts. */
  CHECKOUT_MAX_OPEN_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(3),
  CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(15),
  /**
   * What anonymous (not signed-in) unpaid checkouts may hold together of each product, in percent
   * of its units on hand, rounded up (docs/decisions/016-anonymous-holds.md).
   */
  ANONYMOUS_HOLD_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /**
   * An IPv6 client is counted by its /64; its /56 (one customer's network) may use this many times
   * each per-client limit: holds, checkout, Buy Token and sign-up rate limits, live streams.
   */
  IPV6_NETWORK_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(1000).default(4),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(5 * 1024 * 1024),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalString,
  S3_FORCE_PATH_STYLE: bool(true),
  SEED_DEMO: bool(true),
  /** Admins must have two-factor sign-in on to use the back office. */
  ADMIN_REQUIRE_2FA: bool(false),
  /** Outgoing mail: an SMTP URL (smtp://user:pass@host:587, smtps://...); unset = .eml files in DATA_DIR/outbox. */
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  /** The From of every mail the shop sends. */
  MAIL_FROM: z.string().trim().min(3).default('Aelo <no-reply@aelo.local>'),
  /** How often the mail sender looks for mail to send. */
  MAIL_SEND_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  /** Where rendered demo photos are kept between starts and test runs; `off` renders every time. */
  DEMO_PHOTO_CACHE_DIR: optionalString,
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
  /** DEX token-pairs API base (GET {base}/tokens/v1/solana/{mint} style: see market module). */
  MARKET_DEX_URL: z.url({ protocol: /^https?$/ }).default('https://api.dexscreener.com/latest/dex/tokens'),
  /** Simple-price API base (GET {base}/simple/price?ids=solana&vs_currencies=usd). */
  MARKET_PRICE_URL: z.url({ protocol: /^https?$/ }).default('https://api.coingecko.com/api/v3'),
  MARKET_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(5000),
  /** USPS Tracking API v3 credentials (developer.usps.com); admin settings override them. */
  USPS_CLIENT_ID: optionalString,
  USPS_CLIENT_SECRET: optionalString,
  /** Where USPS API calls go (a local stand-in in tests). */
  USPS_API_URL: z.url({ protocol: /^https?$/ }).default('https://apis.usps.com'),
  /** Stripe secret key (sk_...) and webhook signing secret (whsec_...); admin settings override them. */
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Where the Stripe SDK sends API calls (a local stand-in in tests); unset = api.stripe.com. */
  STRIPE_API_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** How long a checkout holds its stock (crypto payments; card: see docs/decisions/003). */
  RESERVATION_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  /** How often the reservation sweeper looks for expired payments. */
  SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /** `public` serves the web app's source maps (`/assets/*.map`); `private` (default) answers 404. */
  SOURCE_MAPS: z.enum(['public', 'private']).default('private'),
  /** Live-event streams this process serves at once (503 above), and per client address (429). */
  EVENTS_MAX_STREAMS: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  EVENTS_MAX_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Admins' live-event streams, beside EVENTS_MAX_STREAMS: the public filling that never shuts admins out. */
  EVENTS_MAX_ADMIN_STREAMS: z.coerce.number().int().min(1).max(100_000).default(100),
  /** A live-event stream ends after this long; the browser reconnects (and re-checks its session). */
  EVENTS_MAX_STREAM_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Heartbeat of a live-event stream; the session behind a private stream is re-checked at each. */
  EVENTS_HEARTBEAT_SECONDS: z.coerce.number().min(0.05).max(3600).default(25),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Test-only: the crash point (lib/crash-point.ts) where this process kills itself; refused in production. */
  CRASH_AT: z.enum(CRASH_POINTS).optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/**
 * The environment turned into the server's settings. Values that need a check beyond one
 * variable's schema (origins, proxy ranges, S3 requirements) become issues naming the variable.
 * The two secrets stay optional here: loadConfig fills them from DATA_DIR when unset.
 */
export const ConfigSchema = EnvSchema.transform((env, ctx) => {
  const invalid = (variable: string, message: string) => {
    ctx.addIssue({ code: 'custom', path: [variable], message });
    return z.NEVER;
  };
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');

  const extraOrigins: string[] = [];
  for (const o of (env.TRUSTED_ORIGINS ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)) {
    if (!URL.canParse(o) || !/^https?:$/.test(new URL(o).protocol))
      return invalid('TRUSTED_ORIGINS', `not an http(s) origin: ${o}`);
    extraOrigins.push(new URL(o).origin);
  }

  if (env.CRASH_AT && env.NODE_ENV === 'production')
    return invalid('CRASH_AT', 'is for fault tests only and is refused when NODE_ENV=production');

  if (env.SOLANA_RPC_URL && env.LOCAL_LEDGER === 'demo')
    return invalid(
      'LOCAL_LEDGER',
      'LOCAL_LEDGER=demo runs the local demo ledger and cannot be set together with SOLANA_RPC_URL (a real cluster): unset one of them',
    );
  const ledger = demoLedgerOf(env);

  let trustedProxies: TrustedProxies;
  try {
    trustedProxies = parseTrustedProxies((env.TRUSTED_PROXIES ?? '').split(','));
  } catch (err) {
    return invalid('TRUSTED_PROXIES', (err as Error).message);
  }

  let storage:
    | { driver: 'local'; dir: string }
    | {
        driver: 's3';
        endpoint: string | undefined;
        region: string;
        bucket: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        publicUrl: string;
        forcePathStyle: boolean;
      };
  if (env.STORAGE_DRIVER === 's3') {
    if (!env.S3_BUCKET) return invalid('S3_BUCKET', 'required when STORAGE_DRIVER=s3');
    const base =
      env.S3_PUBLIC_URL ??
      (env.S3_ENDPOINT ? `${env.S3_ENDPOINT.replace(/\/+$/, '')}/${env.S3_BUCKET}` : undefined);
    if (!base) return invalid('S3_PUBLIC_URL', 'required when S3_ENDPOINT is not set');
    storage = {
      driver: 's3',
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      bucket: env.S3_BUCKET,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      publicUrl: base.replace(/\/+$/, ''),
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    };
  } else {
    storage = { driver: 'local', dir: path.join(dataDir, 'uploads') };
  }

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    publicUrl,
    adminRequireTwoFactor: env.ADMIN_REQUIRE_2FA,
    mail: {
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM,
      outboxDir: path.join(dataDir, 'outbox'),
      sendIntervalMs: env.MAIL_SEND_INTERVAL_MS,
    },
    /** The shop's contact address for shoppers (SHOP_CONTACT_EMAIL); null shows none. */
    contactEmail: env.SHOP_CONTACT_EMAIL?.toLowerCase() ?? null,
    trustedOrigins: [new URL(publicUrl).origin, ...extraOrigins],
    /** Addresses and CIDR ranges of the reverse proxies in front of the shop (TRUSTED_PROXIES). */
    trustedProxies,
    secureCookies: publicUrl.startsWith('https://'),
    adminEmail: env.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD,
    /** Unset here: generated once and kept in DATA_DIR/secrets.json (loadConfig). */
    authSecret: env.AUTH_SECRET,
    encryptionKeyHex: env.ENCRYPTION_KEY,
    /** argon2id at OWASP's cost, or its cheapest under NODE_ENV=test (see auth/better-auth.ts). */
    passwordHashCost: env.NODE_ENV === 'test' ? ('test' as const) : ('owasp' as const),
    session: { maxAgeSeconds: env.SESSION_MAX_AGE_DAYS * 86400, idleSeconds: env.SESSION_IDLE_DAYS * 86400 },
    /** Sign-in failures: `max` free ones per email and client, forgotten after `windowSeconds`. */
    signInRateLimit: {
      max: env.SIGN_IN_RATE_LIMIT,
      windowSeconds: env.SIGN_IN_RATE_WINDOW_SECONDS,
      maxDelaySeconds: env.SIGN_IN_MAX_DELAY_SECONDS,
      /** Failures of one account (any client) after which a new device needs an emailed code. */
      accountCodeAfter: env.SIGN_IN_ACCOUNT_CODE_AFTER,
    },
    signUpRateLimit: { max: env.SIGN_UP_RATE_LIMIT, windowSeconds: env.SIGN_UP_RATE_WINDOW_SECONDS },
    /** Checkouts started per client IP and window (each holds stock until it expires). */
    checkoutRateLimit: { max: env.CHECKOUT_RATE_LIMIT, windowSeconds: env.CHECKOUT_RATE_WINDOW_SECONDS },
    /** Buy Token purchases started per client IP and window. */
    tokenPurchaseRateLimit: {
      max: env.TOKEN_PURCHASE_RATE_LIMIT,
      windowSeconds: env.TOKEN_PURCHASE_RATE_WINDOW_SECONDS,
    },
    /** Bounds on held stock: per checkout (units, merchandise value) and per client at once. */
    holds: {
      maxUnits: env.CHECKOUT_MAX_UNITS,
      maxValueCents: env.CHECKOUT_MAX_VALUE_USD * 100,
      maxOpenPerClient: env.CHECKOUT_MAX_OPEN_PER_CLIENT,
      maxHeldUnitsPerClient: env.CHECKOUT_MAX_HELD_UNITS_PER_CLIENT,
      /** Anonymous unpaid checkouts together hold at most this share of a product's units (rounded up). */
      anonymousSharePercent: env.ANONYMOUS_HOLD_SHARE_PERCENT,
    },
    /** An IPv6 /56 may use this many times each per-client (/64) limit. */
    networkLimitMultiplier: env.IPV6_NETWORK_LIMIT_MULTIPLIER,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    uploadLimitBytes: env.UPLOAD_LIMIT_BYTES,
    storage,
    seedDemo: env.SEED_DEMO,
    /** Rendered demo photos kept between starts (undefined: no cache). */
    demoPhotoCacheDir:
      env.DEMO_PHOTO_CACHE_DIR === 'off'
        ? undefined
        : path.resolve(
            env.DEMO_PHOTO_CACHE_DIR ?? path.join(projectRoot, 'node_modules', '.cache', 'aelo-demo-photos'),
          ),
    solana: {
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
    },
    /** What clients may ask of the local ledger's /local-chain (local-chain-limits.ts, rpc.ts). */
    localChain: {
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
    },
    airdrops: {
      dailyUtcTime: env.AIRDROP_DAILY_UTC_TIME,
      excludedWallets: (env.AIRDROP_EXCLUDED_WALLETS ?? '').split(/[\s,]+/).filter(Boolean),
      priorityFeeMicroLamports: env.AIRDROP_PRIORITY_FEE_MICROLAMPORTS,
      batchSize: env.AIRDROP_BATCH_SIZE,
      schedulerIntervalMs: env.AIRDROP_SCHEDULER_INTERVAL_MS,
    },
    market: {
      dexUrl: env.MARKET_DEX_URL.replace(/\/+$/, ''),
      priceUrl: env.MARKET_PRICE_URL.replace(/\/+$/, ''),
      timeoutMs: env.MARKET_TIMEOUT_MS,
    },
    tracking: {
      uspsClientId: env.USPS_CLIENT_ID,
      uspsClientSecret: env.USPS_CLIENT_SECRET,
      uspsApiUrl: env.USPS_API_URL.replace(/\/+$/, ''),
      timeoutMs: env.MARKET_TIMEOUT_MS,
    },
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      /** Parsed STRIPE_API_URL for the SDK's host/port/protocol options; undefined = Stripe itself. */
      api: env.STRIPE_API_URL ? stripeApi(env.STRIPE_API_URL) : undefined,
    },
    reservationMinutes: env.RESERVATION_MINUTES,
    sweepIntervalSeconds: env.SWEEP_INTERVAL_SECONDS,
    logLevel: env.LOG_LEVEL,
    /** Test-only: the crash point armed in this process (CRASH_AT), if any. */
    crashAt: env.CRASH_AT,
    /** Live-event stream limits (see events.routes.ts). */
    events: {
      maxStreams: env.EVENTS_MAX_STREAMS,
      maxStreamsPerClient: env.EVENTS_MAX_STREAMS_PER_CLIENT,
      maxAdminStreams: env.EVENTS_MAX_ADMIN_STREAMS,
      maxStreamMs: env.EVENTS_MAX_STREAM_SECONDS * 1000,
      heartbeatMs: Math.round(env.EVENTS_HEARTBEAT_SECONDS * 1000),
    },
    /** SOURCE_MAPS=public: the browser bundle's source maps are served. */
    publicSourceMaps: env.SOURCE_MAPS === 'public',
  };
});

/** The server's settings: inferred from ConfigSchema, with both secrets always present. */
export type Config = Omit<z.output<typeof ConfigSchema>, 'authSecret' | 'encryptionKeyHex'> & {
  authSecret: string;
  encryptionKey: Buffer;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { authSecret, encryptionKeyHex, ...config } = parsed.data;
  const generated = authSecret && encryptionKeyHex ? undefined : loadOrCreateSecrets(config.dataDir);
  return {
    ...config,
    authSecret: authSecret ?? generated!.authSecret,
    encryptionKey: Buffer.from(encryptionKeyHex ?? generated!.encryptionKey, 'hex'),
  };
}

/** Why the local demo ledger runs: LOCAL_LEDGER=demo, or unset on a configuration that looks like no live shop. */
export type DemoLedgerMode = 'opted-in' | 'automatic';

/**
 * The settings that make a configuration look like a live shop: an https PUBLIC_URL, a PostgreSQL
 * database, Stripe keys, outgoing mail. Such a shop never runs the demo ledger by itself, whatever
 * NODE_ENV: its faucet and its demo wallet's key are open to anyone, so goods would ship for play money.
 */
export function liveShopSettings(env: Env): string[] {
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
export function demoLedgerOf(env: Env): { mode: DemoLedgerMode | null; offBy: string | null } {
  if (env.SOLANA_RPC_URL) return { mode: null, offBy: null };
  if (env.LOCAL_LEDGER === 'demo') return { mode: 'opted-in', offBy: null };
  if (env.LOCAL_LEDGER === 'off') return { mode: null, offBy: 'LOCAL_LEDGER=off' };
  const live = liveShopSettings(env);
  return live.length === 0 ? { mode: 'automatic', offBy: null } : { mode: null, offBy: live.join(', ') };
}

function stripeApi(url: string): { protocol: 'http' | 'https'; host: string; port: number } {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  const port = parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443;
  return { protocol, host: parsed.hostname, port };
}
