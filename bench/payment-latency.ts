/**
 * Payment-to-paid latency on the local ledger (issue 12): N = 50 SOL checkouts, each paid the way a
 * wallet pays (the checkout's Solana Pay URL read with @solana/pay, signed with web3.js, sent to
 * /local-chain); the clock starts when the RPC reports the transaction confirmed and stops when the
 * shop's payment-status API first answers 'completed' (polled every 20 ms, as a browser would
 * poll). Median and p95; target: median under 1,500 ms. The baseline, measured in the same process,
 * is one status request's round trip: the ratio says how much of the latency is the watcher's.
 *
 *   npx tsx bench/payment-latency.ts [--runs=50]
 *
 * The shop runs in process (embedded PGlite in a temporary DATA_DIR, the payment watcher at its
 * default interval). Output: its figures through bench/support/figures.ts (the `npm run bench` table
 * and bench/results.json), and bench/results/payment-latency.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { Connection, Keypair } from '@solana/web3.js';
import { createApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { closeDeps, createDeps } from '../src/server/deps';
import { startPaymentWatcher } from '../src/server/jobs/payment-watcher';
import { createLogger } from '../src/server/lib/logger';
import { attachLocalChainSockets } from '../src/server/local-ledger/local-chain-sockets';
import { createProduct } from '../tests/factories/product';
import { figure, quantile, reportFigures } from './support/figures';
import { BENCH_SHIPPING } from './support/http-client';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results', 'payment-latency.json');
const TARGET_MEDIAN_MS = 1_500;
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 50);

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-pay-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    CHECKOUT_RATE_LIMIT: '100000',
    CHECKOUT_MAX_OPEN_PER_CLIENT: '10000',
    CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '10000',
    // The bench's wallet pays from 127.0.0.1 as fast as it can: the ledger's client limits aside.
    LOCAL_CHAIN_CALLS_PER_MINUTE: '1000000',
    LOCAL_CHAIN_SENDS_PER_MINUTE: '1000000',
  });
  const deps = await createDeps(config, createLogger('silent'));
  const server = serve({ fetch: createApp(deps).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const detach = attachLocalChainSockets(server as Server, deps.localChain!, config);
  const watcher = startPaymentWatcher(deps);
  const origin = config.publicUrl;

  try {
    const product = await createProduct(deps.database.db, {
      title: 'Bench Legging',
      priceCents: 4_000,
      quantity: RUNS * 2,
      sizes: [],
      colors: [],
    });
    const chain = await deps.localChain!.get();
    const payer = Keypair.fromSecretKey(Uint8Array.from(chain.setup.demoShopperKey));
    const connection = new Connection(`${url}/local-chain`, {
      commitment: 'confirmed',
      wsEndpoint: `${url.replace('http', 'ws')}/local-chain`,
    });

    const latencies: number[] = [];
    const roundTrips: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const res = await fetch(`${url}/api/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({
          items: [{ productId: product.id, quantity: 1 }],
          shippingInfo: BENCH_SHIPPING,
          paymentMethod: 'sol',
        }),
      });
      const checkout = (await res.json()) as { reference: string; crypto: { paymentUrl: string } };
      const statusUrl = `${url}/api/payments/${checkout.reference}/status`;
      // Baseline: one status round trip while the payment is awaited.
      const b0 = performance.now();
      await (await fetch(statusUrl)).json();
      roundTrips.push(performance.now() - b0);

      const request = parseURL(checkout.crypto.paymentUrl) as TransferRequestURL;
      const tx = await createTransfer(connection, payer.publicKey, {
        recipient: request.recipient,
        amount: request.amount!,
        reference: request.reference!,
      });
      tx.sign(payer);
      const signature = await connection.sendRawTransaction(tx.serialize());
      await connection.confirmTransaction(signature, 'confirmed');
      const t0 = performance.now();
      for (;;) {
        const status = (await (await fetch(statusUrl)).json()) as { status: string };
        if (status.status === 'completed') break;
        if (status.status !== 'pending') throw new Error(`payment ended ${status.status}`);
        if (performance.now() - t0 > 30_000) throw new Error('payment not completed within 30 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      latencies.push(performance.now() - t0);
    }

    const sorted = [...latencies].sort((a, b) => a - b);
    const base = [...roundTrips].sort((a, b) => a - b);
    const result = {
      runs: RUNS,
      medianMs: Math.round(quantile(sorted, 0.5)),
      p95Ms: Math.round(quantile(sorted, 0.95)),
      baselineStatusRoundTripMedianMs: Number(quantile(base, 0.5).toFixed(1)),
      ratioToBaseline: Number((quantile(sorted, 0.5) / quantile(base, 0.5)).toFixed(1)),
      targetMedianMs: TARGET_MEDIAN_MS,
      watchIntervalMs: config.solana.watchIntervalMs,
    };
    console.table([result]);
    mkdirSync(path.dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2)}\n`);
    const baseline = quantile(base, 0.5);
    const figures = [
      figure('payment to paid (SOL, local ledger): median', quantile(sorted, 0.5), 'ms', {
        baseline,
        target: ['<', TARGET_MEDIAN_MS],
      }),
      figure('payment to paid (SOL, local ledger): p95', quantile(sorted, 0.95), 'ms', {
        baseline: quantile(base, 0.95),
      }),
    ];
    reportFigures(figures);
    if (figures.some((f) => f.met === false)) process.exitCode = 1;
    await new Promise((r) => setTimeout(r, 700));
  } finally {
    await watcher.stop();
    detach();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
