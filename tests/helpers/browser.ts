/**
 * Browser-test infrastructure: the REAL built server (`node dist/server/main.js`) on a free port
 * with its own temporary DATA_DIR, and system Chromium driven by playwright-core.
 *
 * - Chromium comes from CHROMIUM_PATH, /usr/bin/chromium-headless-shell or /usr/bin/chromium. Without one, suites declared with
 *   `describeBrowser` are skipped and ONE line starting "SKIPPED: browser tests" says why.
 * - The server must be built first (`npm run build`; `npm test` and `npm run test:e2e` build when stale).
 * - Any console error or uncaught error in a page fails the test that opened it, unless the test
 *   said it expects it (`allowConsoleErrors`, e.g. the browser's own "status of 404" line).
 *
 * Usage:
 *   describeBrowser('journey', () => {
 *     const shop = useBrowserSuite();
 *     it('...', async () => { const page = await shop.newPage(); await page.goto('/'); ... });
 *   });
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Response,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { demoLedgerOptIn } from './demo-ledger';
import { LOCAL_CHAIN_TEST_LIMITS } from './local-chain-limits';
import { copyPgliteTemplate } from './pglite-template';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The built app the tests start: dist/, or SHOP_DIST_DIR (a build of its own, laid out as dist/
 * inside a directory with the package's package.json and db/, so the server finds its web app
 * there), so that one engineer can test a build while another rebuilds dist/.
 */
export const DIST_DIR = process.env.SHOP_DIST_DIR
  ? path.resolve(process.env.SHOP_DIST_DIR)
  : path.join(ROOT_DIR, 'dist');
export const SERVER_ENTRY = path.join(DIST_DIR, 'server/main.js');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-site-isolation-trials',
  '--disable-features=IsolateOrigins,site-per-process,Translate,BackForwardCache,OptimizationHints,MediaRouter',
  '--renderer-process-limit=2',
  '--disable-renderer-backgrounding',
] as const;

export const DEFAULT_ADMIN = { email: 'admin@aelo.test', password: 'admin-password-1234' } as const;

// ---------------------------------------------------------------------------------------------
// Chromium

function findChromium():
  { executablePath: string; reason?: undefined } | { executablePath?: undefined; reason: string } {
  const fromEnv = process.env.CHROMIUM_PATH?.trim();
  if (fromEnv) {
    return existsSync(fromEnv)
      ? { executablePath: fromEnv }
      : { reason: `CHROMIUM_PATH is set to ${fromEnv}, which does not exist` };
  }
  // Chromium's headless shell (Debian's chromium-headless-shell, what Playwright itself runs
  // headless) is the same Blink and V8 without the desktop browser around them: the browser files
  // used about 40% less CPU with it than with the full browser (decision 008).
  for (const candidate of ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']) {
    if (existsSync(candidate)) return { executablePath: candidate };
  }
  return {
    reason:
      'no Chromium found: set CHROMIUM_PATH or install /usr/bin/chromium-headless-shell or /usr/bin/chromium',
  };
}

const chromiumLookup = findChromium();

/** Path of the Chromium binary used, when there is one. */
export const chromiumPath: string | undefined = chromiumLookup.executablePath;
/** False when browser suites are skipped; `browserSkipReason` says why. */
export const hasBrowser: boolean = chromiumPath !== undefined;
export const browserSkipReason: string | undefined = chromiumLookup.reason;

let skipNoticePrinted = false;
function printSkipNotice(): void {
  if (skipNoticePrinted) return;
  skipNoticePrinted = true;
  console.warn(`SKIPPED: browser tests (${browserSkipReason ?? 'no browser'})`);
}

/** `describe` for browser journeys: skipped, with one explanatory line, when there is no Chromium. */
export function describeBrowser(name: string, fn: () => void): void {
  if (hasBrowser) {
    // A journey drives a real browser and server on a shared machine: allow it twice the usual time.
    describe(name, { timeout: 120_000 }, fn);
  } else {
    // No Chromium on this machine: the suite is skipped, its name in the report carries the reason
    // and printSkipNotice() says it once. CI installs Chromium, so there it always runs.
    printSkipNotice();
    describe.skip(`${name} — SKIPPED: ${browserSkipReason ?? 'no browser'}`, fn);
  }
}

export async function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error(`SKIPPED: browser tests (${browserSkipReason})`);
  return chromium.launch({ executablePath: chromiumPath, args: [...CHROMIUM_ARGS] });
}

let workerChromium: Promise<Browser> | undefined;

/**
 * The Chromium of this Vitest worker: the browser files a worker runs one after another share it
 * (modules stay loaded from file to file, `isolate: false`), instead of launching one each (about
 * 1.3 CPU seconds, and a first page with the browser's font and code caches cold). Every test still
 * gets contexts of its own, so nothing but the browser process is shared. Chromium exits with the
 * worker (Playwright ends what it launched when its process exits, and the browser ends when its
 * pipe closes); one that crashed or was closed is launched again.
 */
export function sharedChromium(): Promise<Browser> {
  workerChromium ??= launchChromium().then(
    (browser) => {
      browser.on('disconnected', () => {
        workerChromium = undefined;
      });
      return browser;
    },
    (error: unknown) => {
      workerChromium = undefined;
      throw error;
    },
  );
  return workerChromium;
}

// ---------------------------------------------------------------------------------------------
// The shop server

export interface ShopServerOptions {
  /** Seed the demo catalogue (default false: tests build their own data). */
  seedDemo?: boolean;
  /** A PostgreSQL database; without it the server uses embedded PGlite under its DATA_DIR. */
  databaseUrl?: string | undefined;
  admin?: { email: string; password: string };
  /** Extra environment for the server (wins over the defaults). */
  env?: Record<string, string>;
  /** How long to wait for GET /api/health to answer 200 (default 60 s). */
  startTimeoutMs?: number;
  /** Start from the suite's migrated PGlite template (default true; false outside Vitest, e.g. benches). */
  pgliteTemplate?: boolean;
  /** The port to listen on (default: a free one), for a proxy configured before the server starts. */
  port?: number;
}

export interface ShopServer {
  /** http://127.0.0.1:<port>, also the server's PUBLIC_URL. */
  baseUrl: string;
  port: number;
  dataDir: string;
  admin: { email: string; password: string };
  /** What the server printed so far (stdout and stderr). */
  logs(): string;
  stop(): Promise<void>;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A free port below the system's ephemeral range (Linux hands out 32768-60999 to `listen(0)`).
 * The server binds it only after it has opened its database, seconds later on a busy machine;
 * a port from the ephemeral range could meanwhile go to a server another test file starts on
 * port 0 in the same run, and the health check would then find that server instead (CI once
 * served a page from another test's database that way).
 */
export async function findFreePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isFree(port)) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts `node dist/server/main.js` and resolves once GET /api/health answers 200. */
export async function startShopServer(options: ShopServerOptions = {}): Promise<ShopServer> {
  if (!existsSync(SERVER_ENTRY) || !existsSync(path.join(DIST_DIR, 'web/server/index.js'))) {
    throw new Error(
      'The app is not built: run `npm run build` first (npm test and npm run test:e2e build when stale).',
    );
  }
  const port = options.port ?? (await findFreePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-e2e-'));
  // The embedded database starts from the migrated template instead of running initdb.
  if (!options.databaseUrl && options.pgliteTemplate !== false)
    copyPgliteTemplate(path.join(dataDir, 'pglite'));
  const admin = options.admin ?? { ...DEFAULT_ADMIN };

  // A clean environment: nothing from the developer's shell leaks into the server's configuration.
  const inherited: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'SystemRoot']) {
    const value = process.env[key];
    if (value !== undefined) inherited[key] = value;
  }
  const env: Record<string, string> = {
    ...inherited,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    SEED_DEMO: options.seedDemo ? 'true' : 'false',
    LOG_LEVEL: 'warn',
    // Airdrops run when a test presses Process Airdrop, not at the daily time (it would move SOL mid-journey).
    AIRDROP_SCHEDULER_INTERVAL_MS: '0',
    // Journeys sign in several times a minute from one address.
    SIGN_IN_RATE_LIMIT: '1000',
    SIGN_UP_RATE_LIMIT: '1000',
    // One client holds many checkouts at once here (each test takes its own products).
    CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
    CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: '100000',
    // ...and open many pages, each with its live-event stream, from one address.
    EVENTS_MAX_STREAMS_PER_CLIENT: '200',
    // ...and start many checkouts.
    CHECKOUT_RATE_LIMIT: '1000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    // The journeys pay on the local demo ledger, PostgreSQL runs (DATABASE_URL) included.
    ...demoLedgerOptIn(options.env),
    // ...and use the local ledger's faucet and RPC from one address.
    ...LOCAL_CHAIN_TEST_LIMITS,
    ...options.env,
  };

  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 10_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 240_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `The shop server exited during start-up (code ${child.exitCode}).\n${output.slice(-4000)}`,
      );
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The shop server did not answer GET /api/health with 200 in time.\n${output.slice(-4000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return { baseUrl, port, dataDir, admin, logs: () => output, stop };
}

/**
 * Waits until `target` is visible while moving the page's clock past the app's retry delays
 * (TanStack Query waits 1, 2, 4 s between tries): every retry still happens, in order, but the test
 * does not sit through the back-off. The page must have called `page.clock.install()` before it
 * loaded; between jumps its clock runs as usual.
 */
export async function waitPastRetries(page: Page, target: Locator, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await target.isVisible())) {
    if (Date.now() > deadline) throw new Error(`waitPastRetries: ${String(target)} not visible in time`);
    await page.clock.fastForward(4_000);
    await target.waitFor({ timeout: 300 }).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Pages that fail the test on console errors

export interface PageErrorLog {
  errors: string[];
  allowed: RegExp[];
}

/** Collects console errors and uncaught errors of every page of a context. */
export function trackPageErrors(context: BrowserContext, log: PageErrorLog): void {
  const watch = (page: Page) => {
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const where = msg.location().url;
      log.errors.push(`console.error on ${page.url()}: ${msg.text()}${where ? ` (${where})` : ''}`);
    });
    page.on('pageerror', (error) => {
      log.errors.push(`uncaught error on ${page.url()}: ${error.stack ?? error.message}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

export function unexpectedErrors(log: PageErrorLog): string[] {
  return log.errors.filter((line) => !log.allowed.some((re) => re.test(line)));
}

export interface NewPageOptions {
  /** Viewport width in CSS pixels (default 1280). */
  width?: number;
  height?: number;
  /** Emulate a phone (touch, mobile user agent handling) as well as the width. */
  isMobile?: boolean;
  /**
   * 'accepted' (default): the cookie notice and the disclaimer were already answered, so they do not
   * cover the page; 'unset': a first visit, for tests of those prompts.
   */
  consent?: 'accepted' | 'unset';
  /** 'reduce' (default: journeys do not wait on animations) or 'no-preference', for tests of motion. */
  reducedMotion?: 'reduce' | 'no-preference';
  /** false: a browser with JavaScript turned off (what the server's HTML alone shows). */
  javaScriptEnabled?: boolean;
  /** A user agent of its own (a phone's, for what the shop decides by user agent). */
  userAgent?: string;
}

/** The consent prompts' flags, as cookies and in localStorage (src/web/features/consent/hooks/use-stored-flag.ts). */
const CONSENT_FLAGS = { 'aelo-cookie-consent': 'true', 'aelo-disclaimer-accepted': 'true' };

export interface BrowserSuite {
  readonly server: ShopServer;
  readonly browser: Browser;
  /** Absolute URL on the test server. */
  url(pathname: string): string;
  /** A page in a fresh context (own cookies and storage); closed after the test. */
  newPage(options?: NewPageOptions): Promise<Page>;
  /** Console errors matching these are expected in the current test (e.g. /status of 401/). */
  allowConsoleErrors(...patterns: RegExp[]): void;
}

/**
 * Storefront pages arrive rendered by the server: a click before React has hydrated them would do
 * nothing. `page.goto` and `page.reload` of an app page therefore also wait for <html data-hydrated> (set by the app
 * once it is interactive, lib/after-hydration.ts); a page that never hydrates fails the test.
 */
export function waitingForHydration(page: Page): Page {
  const hydrated = async (response: Response | null) => {
    const type = (await response?.headerValue('content-type')) ?? '';
    if (type.startsWith('text/html')) {
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: 20_000 });
    }
    return response;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => hydrated(await goto(url, options));
  page.reload = async (options) => hydrated(await reload(options));
  return page;
}

/**
 * Registers the hooks of a browser suite: one server for the file, the worker's browser, a fresh
 * context per page, and after each test a failure if any page logged an unexpected error.
 */
export function useBrowserSuite(options: ShopServerOptions = {}): BrowserSuite {
  let server: ShopServer | undefined;
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  let log: PageErrorLog = { errors: [], allowed: [] };

  beforeAll(async () => {
    const [srv, br] = await Promise.allSettled([startShopServer(options), sharedChromium()]);
    if (srv.status === 'fulfilled') server = srv.value;
    if (br.status === 'fulfilled') browser = br.value;
    if (srv.status === 'rejected' || br.status === 'rejected') {
      await server?.stop();
      throw srv.status === 'rejected' ? srv.reason : (br as PromiseRejectedResult).reason;
    }
  });

  afterEach(async () => {
    const current = log;
    log = { errors: [], allowed: [] };
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    contexts = [];
    const unexpected = unexpectedErrors(current);
    if (unexpected.length > 0) {
      throw new Error(`The page reported errors:\n${unexpected.join('\n')}`);
    }
  });

  afterAll(async () => {
    // The browser stays for the worker's next file; what this file opened in it goes, including
    // contexts a test made itself through `browser.newContext()`.
    await Promise.all((browser?.contexts() ?? []).map((c) => c.close().catch(() => undefined)));
    await server?.stop();
  });

  const suite: BrowserSuite = {
    get server() {
      if (!server) throw new Error('The shop server is not running (see beforeAll)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not running (see beforeAll)');
      return browser;
    },
    url(pathname: string) {
      return new URL(pathname, suite.server.baseUrl).toString();
    },
    async newPage({
      width = 1280,
      height = 800,
      isMobile = false,
      consent = 'accepted',
      reducedMotion = 'reduce',
      javaScriptEnabled = true,
      userAgent,
    }: NewPageOptions = {}) {
      const context = await suite.browser.newContext({
        baseURL: suite.server.baseUrl,
        viewport: { width, height },
        isMobile,
        hasTouch: isMobile,
        reducedMotion,
        javaScriptEnabled,
        ...(userAgent ? { userAgent } : {}),
      });
      contexts.push(context);
      trackPageErrors(context, log);
      // A script, style or eval the shop's CSP refused is an error of the page too.
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `CSP violation: ${event.violatedDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
          );
        });
      });
      if (consent === 'accepted') {
        await context.addCookies(
          Object.entries(CONSENT_FLAGS).map(([name, value]) => ({ name, value, url: suite.server.baseUrl })),
        );
        await context.addInitScript((flags: Record<string, string>) => {
          // about:blank and data: documents have no storage; touching it there throws.
          if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
          for (const [key, value] of Object.entries(flags)) {
            if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, value);
          }
        }, CONSENT_FLAGS);
      }
      const page = await context.newPage();
      return javaScriptEnabled ? waitingForHydration(page) : page;
    },
    allowConsoleErrors(...patterns: RegExp[]) {
      log.allowed.push(...patterns);
    },
  };
  return suite;
}
