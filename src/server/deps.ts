import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { createRateLimiter } from './db/rate-limiter';
import { openRedis, type RedisState } from './db/redis';
import { createLifecycle, type Lifecycle } from './lib/lifecycle';
import { createJobTicks, type JobTicks } from './jobs/job-ticks';
import { migrate } from './db/migrate';
import type { Logger } from './lib/logger';
import { migrationsDir } from './lib/paths';
import { createAdminServices, type AdminServices } from './modules/admin/admin.services';
import { createAuthService, type AuthService } from './modules/auth/auth.service';
import { createCheckoutService, type CheckoutService } from './modules/checkout/checkout.service';
import { createCatalogService, type CatalogService } from './modules/catalog/catalog.service';
import { createEventHub, type EventHub } from './modules/events/event-hub';
import { createMarketService, type MarketService } from './modules/market/market.service';
import { createPaymentsService, type PaymentsService } from './modules/payments/payments.service';
import { createStripeGateway, type StripeGateway } from './modules/payments/stripe-gateway';
import {
  createStripeWebhooksService,
  type StripeWebhooksService,
} from './modules/payments/stripe-webhooks.service';
import { createSettingsService, type SettingsService } from './modules/settings/settings.service';
import { createStorage, type Storage } from './modules/storage/storage';
import { lazyLocalChain, type LocalChainHost } from './local-ledger/local-chain';
import { createChainService, type ChainService } from './modules/chain/chain.service';
import { createMailService, type MailService } from './modules/mail/mail.service';
import {
  createCustomerOrdersService,
  type CustomerOrdersService,
} from './modules/orders/customer-orders.service';
import { createGuestOrderService, type GuestOrderService } from './modules/orders/guest-order.service';
import {
  createRefundsService,
  type RefundsService,
  type RefundView,
} from './modules/refunds/refunds.service';
import { explorerTxUrl } from '#common/explorer';
import {
  createAccountSettingsService,
  type AccountSettingsService,
} from './modules/account/account-settings.service';
import { createWalletService, type WalletService } from './modules/wallet/wallet.service';
import { createAirdropEngine, type AirdropEngineService } from './modules/airdrops/airdrop-engine';
import { createRewardsService, type RewardsService } from './modules/airdrops/rewards.service';
import { createTrackingService, type TrackingService } from './modules/tracking/tracking.service';
import { createUspsCarrier } from './modules/tracking/usps-carrier';
import { createTicketsService, type TicketsService } from './modules/messages/tickets.service';
import { createMailTransport } from './modules/mail/mail-transport';
import { installMailTemplates } from './modules/mail/template-files';
import { createTokenSalesService, type TokenSalesService } from './modules/token-sales/token-sales.service';
import {
  createCryptoPaymentsService,
  type CryptoPaymentsService,
} from './modules/payments/crypto-payments.service';

/** Everything a request handler may use. Built once by main.ts (and by tests, per test file). */
export interface AppDeps {
  config: Config;
  logger: Logger;
  database: Database;
  /** REDIS_URL's connection (rate-limit counters, live events); undefined = PostgreSQL does both. */
  redis: RedisState | undefined;
  auth: AuthService;
  events: EventHub;
  storage: Storage;
  market: MarketService;
  catalog: CatalogService;
  settings: SettingsService;
  stripe: StripeGateway;
  payments: PaymentsService;
  stripeWebhooks: StripeWebhooksService;
  checkout: CheckoutService;
  admin: AdminServices;
  /** The holder-rewards engine: daily top-50 and random airdrops (run by the scheduler job). */
  airdrops: AirdropEngineService;
  /**
   * The in-process Solana demo ledger, opened on first use; undefined when it does not run
   * (SOLANA_RPC_URL, LOCAL_LEDGER=off, or a live-looking configuration without LOCAL_LEDGER=demo).
   */
  localChain: LocalChainHost | undefined;
  /** The chain the shop is paid on (local ledger or SOLANA_RPC_URL). */
  chain: ChainService;
  cryptoPayments: CryptoPaymentsService;
  tokenSales: TokenSalesService;
  /** Refunds, card and crypto: the admin's, and the shop's own (queueRefund); carried out by the refund worker. */
  refunds: RefundsService;
  /** Outgoing mail, queued in the database and sent by the mail sender job. */
  mail: MailService;
  /** One order by the signed link of its mail (guests have no account). */
  guestOrders: GuestOrderService;
  /** A signed-in customer's orders. */
  customerOrders: CustomerOrdersService;
  /** A signed-in customer's support tickets. */
  tickets: TicketsService;
  /** A signed-in customer's profile settings. */
  accountSettings: AccountSettingsService;
  /** The wallet linked to a customer's account (proven by Sign In With Solana). */
  wallet: WalletService;
  /** A wallet's holder rewards. */
  rewards: RewardsService;
  /** Parcel tracking status from the carrier (USPS), cached. */
  tracking: TrackingService;
  /** Whether this instance is shutting down (readiness, live streams; main.ts drains it on SIGTERM). */
  lifecycle: Lifecycle;
  /** When each periodic job last completed a tick (job lag in /metrics). */
  jobTicks: JobTicks;
}

export interface CreateDepsOptions {
  /** Use an already-open database (tests share one between two app instances). */
  database?: Database;
  /** Replaces the global fetch for outside services (tests point it at local fakes). */
  fetch?: typeof fetch;
}

export async function createDeps(
  config: Config,
  logger: Logger,
  options: CreateDepsOptions = {},
): Promise<AppDeps> {
  // Every mail template is read and checked first: a missing or broken file stops the start, naming it.
  installMailTemplates(config.mail.templatesDir, config.shopName);
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: config.databaseUrl ? '' : `${config.dataDir}/pglite`,
      poolSize: config.databasePoolSize,
      logger,
    }));
  await migrate(database, migrationsDir, logger);
  const redis = config.redis ? await openRedis({ ...config.redis, logger }) : undefined;
  const events = await createEventHub({ database, logger, transport: redis?.events });
  const rateLimiter = () => createRateLimiter(database.db, redis?.counters);
  const mail = createMailService({
    db: database.db,
    transport: createMailTransport(config, logger),
    logger,
    maxAttempts: config.mail.maxAttempts,
    database,
  });
  const auth = createAuthService({ config, database, logger, mail });
  const storage = createStorage(config);
  const settings = createSettingsService({ config, db: database.db, events, logger });
  const market = createMarketService({
    config,
    logger,
    settings,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const stripe = createStripeGateway({ config, settings, logger });
  const localChain = config.solana.localLedger ? lazyLocalChain(config.dataDir) : undefined;
  const chain = createChainService({ config, localChain });
  const refunds = createRefundsService({ config, database, logger, events, stripe, chain });
  const cryptoPayments = createCryptoPaymentsService({
    config,
    database,
    logger,
    events,
    chain,
    market,
    refunds,
  });
  const orderLinks = { publicUrl: config.publicUrl, secret: config.authSecret };
  const payments = createPaymentsService({
    links: orderLinks,
    database,
    events,
    stripe,
    chainCheck: cryptoPayments,
    refunds,
  });
  const stripeWebhooks = createStripeWebhooksService({
    links: orderLinks,
    database,
    logger,
    events,
    stripe,
    refunds,
  });
  // Refund DTOs in the order views: the shop's cluster for explorer links, the AELO mint's decimals.
  const refundView = async (): Promise<RefundView> => {
    const token = await chain.tokenInfo();
    return {
      explorerUrl: (signature) => explorerTxUrl(signature, token.cluster),
      tokenDecimals: token.decimals,
    };
  };
  const guestOrders = createGuestOrderService({
    db: database.db,
    links: orderLinks,
    imagePublicBase: storage.publicBase,
    refundView,
  });
  const checkout = createCheckoutService({
    config,
    database,
    logger,
    events,
    payments,
    stripe,
    crypto: cryptoPayments,
    isCryptoEnabled: async () => (await chain.accounts().catch(() => null)) !== null,
    rateLimiter: rateLimiter(),
    passwords: auth,
  });
  const tokenSales = createTokenSalesService({
    config,
    database,
    logger,
    chain,
    cryptoPayments,
    rateLimiter: rateLimiter(),
  });
  const catalog = createCatalogService({ db: database.db, storage, events, logger });
  const airdrops = createAirdropEngine({
    config,
    database,
    logger,
    chain,
    transport: chain.transport,
    market,
  });
  const admin = createAdminServices({
    config,
    db: database.db,
    events,
    storage,
    logger,
    settings,
    airdropEngine: airdrops,
    refundView,
  });
  return {
    config,
    logger,
    database,
    redis,
    auth,
    events,
    storage,
    market,
    catalog,
    settings,
    stripe,
    payments,
    stripeWebhooks,
    checkout,
    admin,
    airdrops,
    localChain,
    chain,
    cryptoPayments,
    tokenSales,
    refunds,
    mail,
    guestOrders,
    customerOrders: createCustomerOrdersService({
      db: database.db,
      imagePublicBase: storage.publicBase,
      refundView,
    }),
    tickets: createTicketsService({ db: database.db, events, rateLimiter: rateLimiter() }),
    accountSettings: createAccountSettingsService({ db: database.db }),
    wallet: createWalletService({
      db: database.db,
      publicUrl: config.publicUrl,
      shopName: config.shopName,
      cluster: async () => (await chain.tokenInfo()).cluster,
      rateLimiter: rateLimiter(),
    }),
    rewards: createRewardsService({ db: database.db }),
    tracking: createTrackingService({
      settings,
      logger,
      carrier: createUspsCarrier({
        baseUrl: config.tracking.uspsApiUrl,
        timeoutMs: config.tracking.timeoutMs,
        fetch: options.fetch ?? fetch,
      }),
    }),
    lifecycle: createLifecycle(),
    jobTicks: createJobTicks(),
  };
}

export async function closeDeps(deps: AppDeps, options: { keepDatabase?: boolean } = {}): Promise<void> {
  deps.catalog.close();
  await deps.mail.close();
  await deps.localChain?.close();
  await deps.events.close();
  await deps.redis?.close();
  if (!options.keepDatabase) await deps.database.close();
}
