import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { vi } from 'vitest';
import type { CrashPointName } from '#server/lib/crash-point';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import { ROOT_DIR } from './browser';
import { demoLedgerOptIn } from './demo-ledger';
import { LOCAL_CHAIN_TEST_LIMITS } from './local-chain-limits';

/**
 * The shop as a process of its own, for the crash-fault tests: a test can kill it with SIGKILL (or
 * arm a crash point, CRASH_AT, where it kills itself) and start it again on the same database and
 * DATA_DIR, which an in-process server (shop-server.ts) cannot survive.
 */

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A private bundle of src/server/main.ts and the ledger worker beside it, as package.json's
 * build:server makes them (dist/ is the build's, and may be older than the source under test);
 * packages stay in node_modules. `remove()` deletes it.
 */
export async function bundleServer(name: string): Promise<{ entry: string; remove: () => void }> {
  const cache = path.join(ROOT_DIR, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, `${name}-`));
  const entry = path.join(dir, 'main.js');
  await build({
    entryPoints: [
      path.join(ROOT_DIR, 'src/server/main.ts'),
      path.join(ROOT_DIR, 'src/server/local-ledger/ledger-worker.ts'),
    ],
    entryNames: '[name]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    outdir: dir,
    logLevel: 'warning',
  });
  return { entry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ShopProcess {
  child: ChildProcess;
  point: CrashPointName | undefined;
  /** The signal that ended it, or its exit code. */
  exit: Promise<NodeJS.Signals | number | null>;
  /** The last 50,000 characters it wrote (stdout and stderr). */
  logs(): string;
}

export interface SpawnShopOptions {
  entry: string;
  /** Where it answers (its HOST and PORT are this URL's). */
  baseUrl: string;
  /** The shop's settings; PATH, HOME, TMPDIR, LANG and TZ come from this process. */
  env: Record<string, string>;
  /** The crash point it kills itself at (CRASH_AT), if any. */
  point?: CrashPointName;
}

/** The admin the crash tests' shop creates at its first start (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const CRASH_ADMIN = { email: 'crash-admin@aelo.test', password: 'crash-admin-password-1' };

/**
 * What every crash test's shop runs with: its DATA_DIR, no demo catalogue, CRASH_ADMIN, card
 * payments at the fake Stripe, crypto on the demo ledger, and rate limits out of the way of a
 * test's quick requests.
 */
export function crashShopEnv(dataDir: string, stripe: FakeStripeServer): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: CRASH_ADMIN.email,
    ADMIN_PASSWORD: CRASH_ADMIN.password,
    ...stripeEnv(stripe),
    // Crypto payments on the local demo ledger, beside the Stripe keys and DATABASE_URL.
    ...demoLedgerOptIn(),
    CHECKOUT_RATE_LIMIT: '1000',
    SIGN_IN_RATE_LIMIT: '1000',
    ...LOCAL_CHAIN_TEST_LIMITS,
  };
}

/** Starts the shop and waits for /api/health to answer 200; fails with its last output if it exits. */
export async function spawnShop({ entry, baseUrl, env, point }: SpawnShopOptions): Promise<ShopProcess> {
  const inherited: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[key];
    if (value !== undefined) inherited[key] = value;
  }
  const url = new URL(baseUrl);
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      HOST: url.hostname,
      PORT: url.port,
      PUBLIC_URL: baseUrl,
      ...env,
      ...(point ? { CRASH_AT: point } : {}),
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-50_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exit = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const shop = { child, point, exit, logs: () => output };
  // Started again on work a killed instance left, a job may reach the armed point before the
  // server answers: that SIGKILL is the point reached (the caller's expectKilled sees it), any
  // other end during start-up is a failure with the server's last output.
  let exited = false;
  void exit.then(() => (exited = true));
  await vi
    .waitFor(
      async () => {
        if (exited) return;
        const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
        if (res.status !== 200) throw new Error(`GET /api/health answered ${res.status}`);
      },
      { timeout: 120_000, interval: 100 },
    )
    .catch((err: unknown) => {
      throw new Error(
        `timed out waiting for the server (CRASH_AT=${point ?? 'unset'}) to answer /api/health (${String(err)})\n${output.slice(-3000)}`,
      );
    });
  if (!exited) return shop;
  const ended = await exit;
  if (point && ended === 'SIGKILL') return shop;
  throw new Error(`the server exited during start-up (${String(ended)}):\n${output.slice(-3000)}`);
}

/** How the process ended within `ms`, or 'still running'. */
export function endOf(
  shop: ShopProcess,
  ms = 30_000,
): Promise<NodeJS.Signals | number | null | 'still running'> {
  return Promise.race([shop.exit, wait(ms).then(() => 'still running' as const)]);
}

/** Stops it as an operator would (SIGTERM), and with SIGKILL if it has not ended in 15 s. */
export async function stopShopProcess(shop: ShopProcess): Promise<void> {
  if (shop.child.exitCode !== null || shop.child.signalCode !== null) return;
  shop.child.kill('SIGTERM');
  await Promise.race([shop.exit, wait(15_000)]);
  if (shop.child.exitCode === null && shop.child.signalCode === null) shop.child.kill('SIGKILL');
  await shop.exit;
}

/**
 * Fake Stripe delivering its webhooks to the shop at `baseUrl`, whichever process answers there,
 * each event's raw body kept in `payloads` to send again as Stripe's retries do.
 */
export function startForwardingStripe(baseUrl: string, payloads: string[]): Promise<FakeStripeServer> {
  return startFakeStripe({
    webhook: async (request) => {
      const payload = await request.clone().text();
      payloads.push(payload);
      return fetch(`${baseUrl}/api/webhooks/stripe`, {
        method: 'POST',
        headers: request.headers,
        body: payload,
      });
    },
  });
}

/** Signs in by email and password; returns the session's Cookie header. */
export async function signIn(
  baseUrl: string,
  credentials: { email: string; password: string },
): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200)
    throw new Error(`sign-in as ${credentials.email}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
}
