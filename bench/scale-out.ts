/**
 * Scale-out (issue 15): two instances of the shop on one PostgreSQL database, each a real server
 * process (bench/support/shop-process.ts). Instance A hosts the local ledger; instance B sets
 * SOLANA_RPC_URL to A's /local-chain (DESIGN.md, Scale-out), and both serve uploads from one
 * directory, as both would read one bucket. A shopper's product page (`/products/:id`, the grid
 * with the product open) is open on B in real Chromium; an admin signed in through the API on A
 * renames that product (PATCH /api/admin/products/:id). The figure is the time from the admin's
 * answer to the new title showing in B's page: the change travels as a PostgreSQL NOTIFY to B, B's
 * live-event stream (SSE) tells the page, the page refetches and renders.
 *
 * Clocks: both ends are read in this process with performance.now(): the admin's answer as it
 * arrives, and the page's sighting when its MutationObserver calls a function exposed to it
 * (page.exposeFunction), so the figure includes that one call back over the DevTools pipe (about
 * a millisecond) and no clock skew.
 *
 * Baseline, in the same run: the same change seen by the same page open on A itself (both pages
 * watch every change). N = 20 changes (`--changes=N`), one at a time; median and p95.
 * Target: median under 500 ms on B.
 *
 *   npx tsx bench/scale-out.ts [--changes=20]
 *
 * Needs the built web app (dist/web, dist/ssr: `npm run build`) and Chromium (CHROMIUM_PATH, or
 * /usr/bin/chromium-headless-shell or /usr/bin/chromium). The PostgreSQL server: BENCH_DATABASE_URL,
 * else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres (a scratch database is
 * created and dropped).
 */
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchChromium } from '../tests/helpers/browser';
import { figure, quantile, reportFigures } from './support/figures';
import { benchArgs } from './support/scale-database';
import {
  createScratchDatabase,
  localLedgerOf,
  ROOT,
  startShopProcess,
  type ShopProcess,
} from './support/shop-process';

const TARGET_MEDIAN_MS = 500;
const { intArg } = benchArgs();
const CHANGES = intArg('changes', 20);
const SEEN_TIMEOUT_MS = 15_000;
const ADMIN = { email: 'scale-out-admin@example.com', password: 'scale-out-admin-password-1' };
/** The consent prompts answered (src/web/features/consent), so nothing covers the page. */
const CONSENT = { 'aelo-cookie-consent': 'true', 'aelo-disclaimer-accepted': 'true' };

const SERVER_ENV = {
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  SEED_DEMO: 'false',
  LOG_LEVEL: 'info',
  AIRDROP_SCHEDULER_INTERVAL_MS: '0',
};

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`admin sign-in on ${base}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function createProduct(base: string, cookie: string): Promise<string> {
  const png = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#e7e5e4' } })
    .png()
    .toBuffer();
  const upload = await fetch(`${base}/api/uploads`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'image/png' },
    body: new Uint8Array(png),
  });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  const { path: image } = (await upload.json()) as { path: string };
  const res = await fetch(`${base}/api/admin/products`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Scale-out Legging 0',
      description: 'Renamed by the scale-out bench.',
      brand: 'Bench',
      priceCents: 4_200,
      images: [image],
      quantity: 5,
      sizes: ['S', 'M'],
      colors: ['Black'],
      gender: 'womens',
      category: 'womens-leggings',
      shippingWeight: 0.5,
    }),
  });
  if (res.status !== 201) throw new Error(`create product: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/**
 * In the page (plain JavaScript: a bundler's helpers do not exist there): `__benchWatch(text)`
 * observes every text the page adds or changes and calls `__benchSeen(text)` on the first that
 * holds it.
 */
const WATCH_SCRIPT = `
window.__benchWatch = function (wanted) {
  var has = function (node) { return (node.textContent || '').indexOf(wanted) >= 0; };
  var observer = new MutationObserver(function (records) {
    for (var i = 0; i < records.length; i++) {
      var record = records[i];
      var hit = record.type === 'characterData' ? has(record.target) : Array.prototype.some.call(record.addedNodes, has);
      if (hit) {
        observer.disconnect();
        window.__benchSeen(wanted);
        return;
      }
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
};`;

interface Watcher {
  name: string;
  page: Page;
  /**
   * Starts watching for `text` (resolves once the page's observer is in place); `seen` resolves with
   * this process's performance.now() when the text shows in the page.
   */
  expect(text: string): Promise<{ seen: Promise<number> }>;
}

/** The product's page on `base`, with an observer that reports each awaited text the moment it shows. */
async function openWatcher(
  context: BrowserContext,
  name: string,
  base: string,
  productId: string,
): Promise<Watcher> {
  const page = await context.newPage();
  const waiting = new Map<string, (at: number) => void>();
  await page.exposeFunction('__benchSeen', (text: string) => {
    const at = performance.now();
    waiting.get(text)?.(at);
    waiting.delete(text);
  });
  await page.addInitScript({ content: WATCH_SCRIPT });
  await page.goto(`${base}/products/${productId}`);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: 30_000 });
  return {
    name,
    page,
    async expect(text) {
      const seen = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${name}: "${text}" not shown in ${SEEN_TIMEOUT_MS} ms`)),
          SEEN_TIMEOUT_MS,
        );
        waiting.set(text, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
      // Watches every text the page adds or changes from now on; one match reports and stops it.
      await page.evaluate(`window.__benchWatch(${JSON.stringify(text)})`);
      return { seen };
    },
  };
}

async function main() {
  for (const file of ['dist/web/server/index.js', 'dist/server/main.js']) {
    if (!existsSync(path.join(ROOT, file)))
      throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  const database = await createScratchDatabase();
  const servers: ShopProcess[] = [];
  const browser = await launchChromium();
  try {
    const a = await startShopProcess({ ...SERVER_ENV, DATABASE_URL: database.url });
    servers.push(a);
    const ledger = localLedgerOf(a);
    const b = await startShopProcess({
      ...SERVER_ENV,
      DATABASE_URL: database.url,
      SOLANA_RPC_URL: `${a.url}/local-chain`,
      SOLANA_CLUSTER: 'devnet',
      TOKEN_MINT: ledger.mint,
      SHOP_WALLET: ledger.shopWallet,
      TREASURY_SECRET_KEY: JSON.stringify(ledger.treasury),
    });
    servers.push(b);
    // One store of uploaded images for both, as one bucket would be.
    rmSync(path.join(b.dataDir, 'uploads'), { recursive: true, force: true });
    symlinkSync(path.join(a.dataDir, 'uploads'), path.join(b.dataDir, 'uploads'));
    console.log(`instance A ${a.url} (local ledger), instance B ${b.url}, database ${database.name}`);

    const cookie = await signIn(a.url);
    const productId = await createProduct(a.url, cookie);

    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      reducedMotion: 'reduce',
    });
    await context.addCookies(
      [a.url, b.url].flatMap((url) => Object.entries(CONSENT).map(([name, value]) => ({ name, value, url }))),
    );
    await context.addInitScript((flags: Record<string, string>) => {
      if (location.protocol !== 'http:') return;
      for (const [key, value] of Object.entries(flags)) localStorage.setItem(key, value);
    }, CONSENT);
    const onB = await openWatcher(context, 'B', b.url, productId);
    const onA = await openWatcher(context, 'A', a.url, productId);

    const rename = async (title: string) => {
      const sentAt = performance.now();
      const res = await fetch(`${a.url}/api/admin/products/${productId}`, {
        method: 'PATCH',
        headers: { origin: a.url, cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      const answeredAt = performance.now();
      if (res.status !== 200) throw new Error(`rename: ${res.status} ${await res.text()}`);
      return { sentAt, answeredAt };
    };

    const latencies: Record<'A' | 'B', number[]> = { A: [], B: [] };
    // For context: from the admin's request sent (the change may reach B before A has answered).
    const fromSent: Record<'A' | 'B', number[]> = { A: [], B: [] };
    const admin: number[] = [];
    // Change 0 is a warm-up: both pages' live-event streams are open once it has shown on both.
    for (let i = 0; i <= CHANGES; i++) {
      const title = `Scale-out Legging ${i + 1}`;
      // The observers are installed before the change is made.
      const watches = await Promise.all([onA, onB].map((w) => w.expect(title)));
      const { sentAt, answeredAt } = await rename(title);
      const [atA, atB] = await Promise.all(watches.map((w) => w.seen));
      if (i === 0) continue;
      latencies.A.push(atA! - answeredAt);
      latencies.B.push(atB! - answeredAt);
      fromSent.A.push(atA! - sentAt);
      fromSent.B.push(atB! - sentAt);
      admin.push(answeredAt - sentAt);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await context.close();

    const stats = (xs: number[]) => {
      const sorted = [...xs].sort((x, y) => x - y);
      return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1)! };
    };
    const onOther = stats(latencies.B);
    const onSame = stats(latencies.A);
    console.log(
      `${CHANGES} renames; seen on B: median ${onOther.median.toFixed(0)} ms, p95 ${onOther.p95.toFixed(0)}, max ${onOther.max.toFixed(0)}; on A: median ${onSame.median.toFixed(0)} ms, p95 ${onSame.p95.toFixed(0)}`,
    );
    const figures = [
      figure('scale-out: admin change on A seen on B, median', onOther.median, 'ms', {
        baseline: onSame.median,
        target: ['<', TARGET_MEDIAN_MS],
      }),
      figure('scale-out: admin change on A seen on B, p95', onOther.p95, 'ms', { baseline: onSame.p95 }),
      figure('scale-out: from the admin request sent, seen on B, median', stats(fromSent.B).median, 'ms', {
        baseline: stats(fromSent.A).median,
      }),
      figure('scale-out: the admin rename request itself, median', stats(admin).median, 'ms'),
    ];
    reportFigures(figures);
    process.exitCode = figures.some((f) => f.met === false) ? 1 : 0;
  } finally {
    await browser.close();
    for (const server of servers.reverse()) await server.stop();
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
