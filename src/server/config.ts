import path from 'node:path';
import { z } from 'zod';
import { bool, optionalString } from './config-fields';
import { opsConfigOf, OpsEnvSchema } from './config-ops';
import { loadOrCreateSecrets } from './config-secrets';
import {
  airdropsConfigOf,
  demoLedgerOf,
  localChainConfigOf,
  SolanaEnvSchema,
  solanaConfigOf,
} from './config-solana';
import { parseTrustedProxies, type TrustedProxies } from './lib/client-ip';
import { CRASH_POINTS } from './lib/crash-point';
import { projectRoot } from './lib/paths';
import { DEFAULT_SHOP_NAME } from '#common/shop';

/**
 * The only reader of `process.env`. Everything the server can be told lives here, validated once.
 * Documented in `.env.example` and the README's configuration table.
 */
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
  /** The shop's name in page titles, mails, Solana Pay requests, wallet sign-in and two-factor apps. */
  SHOP_NAME: z.string().trim().min(1).max(60).default(DEFAULT_SHOP_NAME),
  /** Admins must have two-factor sign-in on to use the back office. */
  ADMIN_REQUIRE_2FA: bool(false),
  /** Outgoing mail: an SMTP URL (smtp://user:pass@host:587, smtps://...); unset = .eml files in DATA_DIR/outbox. */
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  /** The From of every mail the shop sends. */
  /** The From of every mail the shop sends; unset = the shop's name at no-reply@aelo.local. */
  MAIL_FROM: optionalString.pipe(z.string().min(3).optional()),
  /** How often the mail sender looks for mail to send. */
  MAIL_SEND_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  /** Sending attempts of a mail before it is dead-lettered ('failed', listed in the admin's Outbox). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** The mail templates (subject, text and HTML per mail kind); unset = mail-templates/ in the package. */
  MAIL_TEMPLATES_DIR: optionalString,
  /** Where rendered demo photos are kept between starts and test runs; `off` renders every time. */
  DEMO_PHOTO_CACHE_DIR: optionalString,
  ...SolanaEnvSchema.shape,
  ...OpsEnvSchema.shape,
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
  /** `vite` (set by `npm run dev`): pages come from Vite's dev server in this process, with hot reload. */
  WEB_DEV: z.enum(['vite']).optional(),
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
    shopName: env.SHOP_NAME,
    adminRequireTwoFactor: env.ADMIN_REQUIRE_2FA,
    mail: {
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM ?? `${env.SHOP_NAME} <no-reply@aelo.local>`,
      outboxDir: path.join(dataDir, 'outbox'),
      sendIntervalMs: env.MAIL_SEND_INTERVAL_MS,
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
      templatesDir: env.MAIL_TEMPLATES_DIR
        ? path.resolve(env.MAIL_TEMPLATES_DIR)
        : path.join(projectRoot, 'mail-templates'),
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
    solana: solanaConfigOf(env, ledger),
    /** What clients may ask of the local ledger's /local-chain (local-chain-limits.ts, rpc.ts). */
    localChain: localChainConfigOf(env),
    airdrops: airdropsConfigOf(env),
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
    /** WEB_DEV=vite (`npm run dev`): the web app is served by Vite's dev server in this process. */
    webDev: env.WEB_DEV === 'vite',
    ...opsConfigOf(env),
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

/** The settings, or a ConfigError naming every variable that is wrong. */
function parseConfig(source: Record<string, string | undefined>): z.output<typeof ConfigSchema> {
  const parsed = ConfigSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const { authSecret, encryptionKeyHex, ...config } = parseConfig(source);
  const generated = authSecret && encryptionKeyHex ? undefined : loadOrCreateSecrets(config.dataDir);
  return {
    ...config,
    authSecret: authSecret ?? generated!.authSecret,
    encryptionKey: Buffer.from(encryptionKeyHex ?? generated!.encryptionKey, 'hex'),
  };
}

/** Where a shop keeps what a backup holds (DATA_DIR, the database, local uploads). */
export interface BackupPlaces {
  dataDir: string;
  databaseUrl: string | undefined;
  /** The local storage driver's directory; null when photos are in S3. */
  uploadsDir: string | null;
}

/**
 * The places of `npm run backup` / `npm run restore`, read from the same settings as the server's
 * (no secrets are made: a restore brings the shop's own).
 */
export function loadBackupPlaces(source: Record<string, string | undefined> = process.env): BackupPlaces {
  const { dataDir, databaseUrl, storage } = parseConfig(source);
  return { dataDir, databaseUrl, uploadsDir: storage.driver === 'local' ? storage.dir : null };
}

function stripeApi(url: string): { protocol: 'http' | 'https'; host: string; port: number } {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  const port = parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443;
  return { protocol, host: parsed.hostname, port };
}
