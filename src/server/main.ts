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
  const server: Server = createServer((req, res) => handle(req, res));
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

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Jobs stop first; live-event streams end next so that open connections do not hold the server open.
    void Promise.all([
      sweeper.stop(),
      watcher.stop(),
      refundWorker.stop(),
      mailSender.stop(),
      airdropScheduler.stop(),
    ])
      .then(() => detachLedgerSockets?.())
      .then(() => webDev?.close())
      .then(() => deps.events.close())
      .then(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
          }),
      )
      .then(() => closeDeps(deps))
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
