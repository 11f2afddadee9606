import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { ZodError } from 'zod';
import { SERVICE_UNAVAILABLE_MESSAGE, type ErrorBody } from '../common/errors';
import type { AppDeps } from './deps';
import { isDatabaseUnavailable } from './db/errors';
import { AppError, BusyError, RateLimitedError, SERVICE_RETRY_AFTER_SECONDS } from './lib/app-error';
import { sessionMiddleware } from './lib/auth-guards';
import { clientIpMiddleware } from './lib/client-ip';
import { csrfProtection, pageFormProtection } from './lib/csrf';
import { createAccessLog } from './lib/logger';
import { createSecurityHeaders } from './lib/security-headers';
import type { AppEnv } from './lib/hono-env';
import { webDistDir } from './lib/paths';
import { validationError } from './lib/validate';
import { adminRoutes } from './modules/admin/admin.routes';
import { authEmailRoutes } from './modules/auth/auth-email.routes';
import { authSessionRoutes } from './modules/auth/auth-sessions.routes';
import { authTwoFactorRoutes } from './modules/auth/auth-two-factor.routes';
import { customerOrdersRoutes } from './modules/orders/customer-orders.routes';
import { accountSettingsRoutes } from './modules/account/account-settings.routes';
import { rewardsRoutes, walletRoutes } from './modules/wallet/wallet.routes';
import { trackingRoutes } from './modules/tracking/tracking.routes';
import { ticketsRoutes } from './modules/messages/tickets.routes';
import { contactRoutes } from './modules/messages/support-threads.routes';
import { guestOrderRoutes } from './modules/orders/guest-order.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { checkoutRoutes } from './modules/checkout/checkout.routes';
import { catalogRoutes } from './modules/catalog/catalog.routes';
import { robotsTxt, sitemapXml } from './modules/catalog/seo';
import { pagesHandler, type PagesOptions } from './modules/pages/pages.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { createLiveStreams } from './modules/events/live-streams.service';
import type { OpenStreams } from './modules/events/open-streams';
import { createMetricsService } from './modules/metrics/metrics.service';
import { httpMetrics, metricsRoutes } from './modules/metrics/metrics.routes';
import { healthRoutes } from './modules/health/health.routes';
import { marketRoutes } from './modules/market/market.routes';
import {
  paymentsRoutes,
  paymentTransactionRoutes,
  stripeWebhookRoutes,
} from './modules/payments/payments.routes';
import { chainRoutes } from './modules/chain/chain.routes';
import {
  tokenPurchaseRoutes,
  tokenPurchaseTransactionRoutes,
} from './modules/token-sales/token-sales.routes';
import { shopRoutes } from './modules/shop/shop.routes';
import { storageRoutes, uploadsStatic } from './modules/storage/storage.routes';
import { localChainRoutes } from './local-ledger/local-chain.routes';
import { refundTransactionRoutes } from './modules/refunds/refunds.routes';

export interface CreateAppOptions {
  /** React Router's build directory (client/ and server/); defaults to dist/web. */
  webDir?: string;
  /** The web app's server build from Vite's dev server (`npm run dev`), instead of webDir's. */
  loadPageBuild?: PagesOptions['loadBuild'];
}

/** Paths that must accept cross-site POSTs (signed webhooks) are exempt from the CSRF check. */
// Stripe signs its webhooks; Solana Pay wallets POST an account (no cookies, the reference is the capability).
const CSRF_EXEMPT = ['/api/webhooks/', '/api/solana-pay/'];
/** Probes polled every few seconds: not worth an access-log line each. */
const UNLOGGED_PATHS = new Set(['/api/health', '/api/health/live', '/api/health/ready']);
/** A Vary header naming Accept-Encoding (as hono/compress reads it). */
const VARIES_ON_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

export function createApp(deps: AppDeps, options: CreateAppOptions = {}): Hono<AppEnv> {
  const { config, logger } = deps;
  const webDir = options.webDir ?? webDistDir;
  const app = new Hono<AppEnv>();
  const liveStreams: OpenStreams = { public: 0, admin: 0 };
  // Prometheus metrics (METRICS_TOKEN), in this app's own registry; nothing is measured without it.
  const metricsToken = config.metrics.token;
  const metrics = metricsToken
    ? createMetricsService({ database: deps.database, jobTicks: deps.jobTicks, streams: liveStreams })
    : undefined;
  /** The pages' in-process API calls: not a client's requests, so not counted. */
  const inProcess = new WeakSet<Request>();
  const isInProcess = (request: Request) => inProcess.has(request);
  if (metrics) app.use('*', httpMetrics(metrics, isInProcess));

  app.use('*', requestId());
  const accessLog = createAccessLog(logger);
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    if (!UNLOGGED_PATHS.has(path)) {
      accessLog(
        c.get('requestId'),
        c.req.method,
        path,
        c.res.status,
        Math.round(performance.now() - started),
      );
    }
  });
  // The API answers data, never a page that runs scripts: its policy needs no per-response nonce
  // (fixed headers, no random bytes per request); pages get a fresh nonce each.
  const { api: apiSecurityHeaders, page: pageSecurityHeaders } = createSecurityHeaders(config);
  app.use('*', (c, next) =>
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- Hono types the route input as any here
    (c.req.path.startsWith('/api/') ? apiSecurityHeaders : pageSecurityHeaders)(c, next),
  );
  app.use('*', clientIpMiddleware(config.trustedProxies));
  // Compression of answers made here. A client that accepts no encoding can have nothing
  // compressed: of compress's work only its Vary on a compressible answer is left, which an answer
  // that already varies on Accept-Encoding (the prepared ones) does not need.
  const compressAnswers: MiddlewareHandler<AppEnv> = compress();
  const noNext = async () => undefined;
  app.use('*', async (c, next) => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- Hono types the route input as any here
    if (c.req.header('accept-encoding')) return compressAnswers(c, next);
    await next();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- as above
    if (!VARIES_ON_ENCODING.test(c.res.headers.get('vary') ?? '')) await compressAnswers(c, noNext);
  });
  const csrfOptions = { development: config.env === 'development' };
  app.use('/api/*', csrfProtection(config.trustedOrigins, CSRF_EXEMPT, csrfOptions));
  app.use(
    '/api/*',
    sessionMiddleware((headers) => deps.auth.getSessionUser(headers)),
  );
  // Uploads get the upload limit (checked again by the storage service); everything else the body limit.
  const limitFor = (maxSize: number): MiddlewareHandler<AppEnv> =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxSize} bytes`);
      },
    });
  const apiLimit = limitFor(config.bodyLimitBytes);
  const uploadLimit = limitFor(config.uploadLimitBytes + 64 * 1024);
  // GET and HEAD carry no body (the Node adapter gives them none); asking would build a full Request.
  app.use('/api/*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD'
      ? next()
      : // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- Hono types the route input as any here
        (c.req.path.startsWith('/api/uploads') ? uploadLimit : apiLimit)(c, next),
  );

  app.route('/api/health', healthRoutes(deps));
  app.route('/api/products', catalogRoutes(deps));
  app.route('/api/auth', authRoutes(deps));
  app.route('/api/auth', authEmailRoutes(deps));
  app.route('/api/auth', authTwoFactorRoutes(deps));
  app.route('/api/auth', authSessionRoutes(deps));
  app.route('/api/events', eventsRoutes(createLiveStreams(deps, liveStreams)));
  app.route('/api/uploads', storageRoutes(deps));
  app.route('/api/market', marketRoutes(deps));
  app.route('/api/shop', shopRoutes(deps));
  app.route('/api/checkout', checkoutRoutes(deps));
  app.route('/api/payments', paymentsRoutes(deps));
  app.route('/api/solana-pay/payments', paymentTransactionRoutes(deps));
  app.route('/api/token-purchases', tokenPurchaseRoutes(deps));
  app.route('/api/guest-orders', guestOrderRoutes(deps));
  app.route('/api/orders', customerOrdersRoutes(deps));
  app.route('/api/tickets', ticketsRoutes(deps));
  app.route('/api/contact', contactRoutes(deps));
  app.route('/api/account/settings', accountSettingsRoutes(deps));
  app.route('/api/wallet', walletRoutes(deps));
  app.route('/api/rewards', rewardsRoutes(deps));
  app.route('/api/tracking-info', trackingRoutes(deps));
  app.route('/api/solana-pay/token-purchases', tokenPurchaseTransactionRoutes(deps));
  app.route('/api/solana-pay/refunds', refundTransactionRoutes(deps));
  app.route('/api/chain', chainRoutes(deps));
  app.route('/api/webhooks/stripe', stripeWebhookRoutes(deps));
  app.route('/api/admin', adminRoutes(deps));
  if (deps.localChain) app.route('/local-chain', localChainRoutes(deps.localChain, deps.config.localChain));
  if (metrics && metricsToken) app.route('/metrics', metricsRoutes(metrics, metricsToken));

  app.all('/api/*', (c) => {
    const body: ErrorBody = {
      error: { code: 'NOT_FOUND', message: `No API route for ${c.req.method} ${c.req.path}` },
    };
    return c.json(body, 404);
  });

  // Search engines: robots.txt and a sitemap with every product page.
  app.get('/robots.txt', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.text(robotsTxt(config.publicUrl));
  });
  app.get('/sitemap.xml', async (c) => {
    c.header('Cache-Control', 'public, max-age=600');
    c.header('Content-Type', 'application/xml; charset=utf-8');
    return c.body(sitemapXml(config.publicUrl, await deps.catalog.listProductUrls()));
  });

  // Uploaded images (local storage driver).
  app.get('/uploads/*', uploadsStatic(deps));

  // The built SPA: hashed assets cached for a year, other files for an hour, index.html revalidated.
  if (existsSync(webDir)) {
    const root = path.relative(process.cwd(), path.join(webDir, 'client'));
    // Source maps reveal the whole client source: served only when the operator asks (SOURCE_MAPS=public).
    if (!config.publicSourceMaps) {
      app.get('*', async (c, next) => {
        if (c.req.path.endsWith('.map')) {
          const body: ErrorBody = { error: { code: 'NOT_FOUND', message: 'Not found' } };
          return c.json(body, 404);
        }
        await next();
      });
    }
    const cacheStaticFiles: MiddlewareHandler<AppEnv> = async (c, next) => {
      await next();
      // Only files served by serveStatic carry Last-Modified; the SPA fallback sets its own header.
      if (c.res.status === 200 && c.res.headers.has('last-modified') && !c.res.headers.has('cache-control')) {
        const immutable = c.req.path.startsWith('/assets/');
        c.res.headers.set(
          'Cache-Control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      }
    };
    app.use('*', cacheStaticFiles);
    // Text assets have brotli copies made at build time (scripts/precompress.mjs).
    app.use(
      '*',
      serveStatic({
        root,
        precompressed: true,
        rewriteRequestPath: (p) => (p === '/' ? '/__no_index__' : p),
      }),
    );
  }

  // The web app's pages: documents, their actions (form posts, which work before the page's code
  // arrives) and navigation data. A form post to a page passes the same origin check as the API's
  // writes; a cross-site HTML form can send one, so its origin is what tells.
  app.use('*', pageFormProtection(config.trustedOrigins, csrfOptions));
  const pages = pagesHandler(deps, {
    buildDir: webDir,
    loadBuild: options.loadPageBuild,
    apiFetch: async (request, c) => {
      inProcess.add(request);
      return app.fetch(request, c.env);
    },
  });
  app.on(['GET', 'HEAD', 'POST'], '*', (c) =>
    // The API's unknown paths answer the API's 404, not a page.
    c.req.path.startsWith('/api/') ? c.notFound() : pages(c),
  );

  app.notFound((c) => {
    const body: ErrorBody = { error: { code: 'NOT_FOUND', message: 'Not found' } };
    return c.json(body, 404);
  });

  app.onError((err, c) => {
    let appError: AppError;
    if (err instanceof AppError) appError = err;
    else if (err instanceof ZodError) appError = validationError(err);
    else if (err instanceof HTTPException) {
      const status = err.status;
      const message = err.message || 'Bad request';
      appError =
        status === 413
          ? new AppError('PAYLOAD_TOO_LARGE', message)
          : status === 400
            ? new AppError(/json/i.test(message) ? 'BAD_JSON' : 'VALIDATION_FAILED', message)
            : status === 401
              ? new AppError('UNAUTHENTICATED', message)
              : status === 403
                ? new AppError('FORBIDDEN', message)
                : new AppError('INTERNAL', 'Internal server error');
    } else if (isDatabaseUnavailable(err)) {
      // The database is down or out of reach: not a bug, and the caller may simply retry.
      logger.warn({ err, reqId: c.var.requestId, path: c.req.path }, 'database unavailable');
      appError = new AppError('SERVICE_UNAVAILABLE', SERVICE_UNAVAILABLE_MESSAGE);
    } else {
      logger.error({ err, reqId: c.var.requestId, path: c.req.path }, 'unhandled error');
      appError = new AppError('INTERNAL', 'Internal server error');
    }
    if (appError instanceof RateLimitedError || appError instanceof BusyError)
      c.header('Retry-After', String(appError.retryAfterSeconds));
    if (appError.code === 'SERVICE_UNAVAILABLE') c.header('Retry-After', String(SERVICE_RETRY_AFTER_SECONDS));
    return c.json(appError.toBody(), appError.status as 400);
  });

  return app;
}
