import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { closeDeps, createDeps } from './deps';
import { attachLocalChainSockets } from './local-ledger/local-chain-sockets';
import { startAirdropScheduler } from './jobs/airdrop-scheduler';
import { startMailSender } from './jobs/mail-sender';
import { startPaymentWatcher } from './jobs/payment-watcher';
import { startRefundWorker } from './jobs/refund-worker';
import { startReservationSweeper } from './jobs/reservation-sweeper';
import { armCrashPoint } from './lib/crash-point';
import { demoLedgerNotice } from './lib/demo-ledger-notice';
import { createLogger } from './lib/logger';
import { startWebDev, type WebDev } from './lib/web-dev';
import { bootstrapAdmin } from './modules/auth/admin-bootstrap';
import { MailTemplateError } from './modules/mail/template-files';
import { seedDemoCatalog } from './seed/demo-seed';
import { seedDemoRewardPools } from './seed/demo-reward-pools';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  armCrashPoint(config.crashAt);
  const logger = createLogger(config.logLevel);
  // The demo ledger in production (its payments are not real), or the setting that turned it off.
  const notice = demoLedgerNotice(config);
  if (notice) logger[notice.level](notice.details, notice.message);
  const deps = await createDeps(config, logger);
  await bootstrapAdmin(deps);
  if (config.seedDemo) {
    await seedDemoCatalog(deps);
    await seedDemoRewardPools(deps);
  }
  if (deps.localChain) {
    const chain = await deps.localChain.get();
    logger.info(
      {
        mint: chain.setup.mint,
        shopWallet: chain.setup.shopWallet,
        demoShopper: chain.setup.demoShopper.address,
      },
      `local Solana ledger (litesvm) serving JSON-RPC at ${config.publicUrl}/local-chain`,
    );
  }

  const sweeper = startReservationSweeper(deps);
  const watcher = startPaymentWatcher(deps);
  const refundWorker = startRefundWorker(deps);
  const mailSender = startMailSender(deps);
  const airdropScheduler = startAirdropScheduler(deps);
  // Every request goes through Hono (@hono/node-server's listener, as its `serve` uses); the server
  // is made here so that the local ledger's websocket (and in development Vite's) can share it.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  // Responses in flight, so that a shutdown can tell those not yet started to close their connection.
  const inFlight = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (deps.lifecycle.isDraining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    handle(req, res);
  });
  const webDev: WebDev | undefined = config.webDev ? await startWebDev(server) : undefined;
  const app = createApp(deps, { loadPageBuild: webDev?.loadBuild });
  const listener = getRequestListener(app.fetch, { hostname: config.host });
  const honoListener = (req: IncomingMessage, res: ServerResponse) => void listener(req, res);
  handle = webDev ? webDev.listener(honoListener) : honoListener;
  server.listen(config.port, config.host, () => {
    logger.info(
      {
        port: (server.address() as AddressInfo).port,
        database: deps.database.backend,
        storage: config.storage.driver,
      },
      `shop listening on ${config.publicUrl}`,
    );
  });
  const detachLedgerSockets = deps.localChain
    ? attachLocalChainSockets(server, deps.localChain, config)
    : undefined;

  /**
   * Graceful shutdown, within SHUTDOWN_TIMEOUT_MS (exit 1 past it): the instance first reports not
   * ready (/api/health/ready 503) and ends its live-event streams; it stops taking connections and
   * closes keep-alive ones as soon as they are idle (a response not yet started says
   * `Connection: close`), while requests in flight finish and each job finishes its current tick;
   * then the database closes and the process exits 0.
   */
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const bound = config.shutdownTimeoutMs;
    logger.info({ signal, timeoutMs: bound, inFlight: inFlight.size }, 'shutting down: draining');
    const force = setTimeout(() => {
      logger.error(
        { inFlight: inFlight.size, timeoutMs: bound },
        'shutdown did not finish within SHUTDOWN_TIMEOUT_MS; exiting',
      );
      process.exit(1);
    }, bound);
    force.unref();
    deps.lifecycle.drain();
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    idleSweep.unref();
    detachLedgerSockets?.();
    void Promise.all([
      closed,
      sweeper.stop(),
      watcher.stop(),
      refundWorker.stop(),
      mailSender.stop(),
      airdropScheduler.stop(),
      webDev?.close(),
    ])
      .then(() => {
        clearInterval(idleSweep);
        return closeDeps(deps);
      })
      .then(() => {
        logger.info({ signal }, 'shut down');
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  // A mail template the owner edited names its file and what is wrong with it: that is all they need.
  console.error(err instanceof MailTemplateError ? err.message : err);
  process.exit(1);
});
