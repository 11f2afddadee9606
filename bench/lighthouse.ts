// Page figures (issues 11 and 15): Lighthouse's mobile run (its default: a mid-range phone on a
// slow 4G link, simulated) on the landing page, a product URL, /login and /admin/login, and, signed
// in as a customer with an order, a ticket and a confirmed email, on every account page
// (/profile/orders, /profile/messages, /profile/wallet, /profile/settings); each page run three
// times and the median kept. The landing page's JavaScript is bench/page-weight.ts's figure.
//
//   npm run bench -- lighthouse                 starts a shop on the demo catalogue and measures it
//   npx tsx bench/lighthouse.ts --base URL      measures a shop already running at URL (demo seeded;
//                                               the account pages need the shop this bench starts)
//   npx tsx bench/lighthouse.ts --runs 5        more runs per page
//   npx tsx bench/lighthouse.ts --cpu-slowdown 3 another CPU slowdown than Lighthouse's default 4x
//   npx tsx bench/lighthouse.ts --pages /faq,/about  other pages than the ones above (account pages
//                                               signed in, as below, unless --base)
//
// Lighthouse's default 4x CPU slowdown models a mid-tier phone on a host whose BenchmarkIndex is
// about 1,530; the bench prints the median index of the runs, since the main-thread figures (TBT
// above all) move with it. On the shared two-core machines here it ranged from 1,077 to 2,235
// within an hour, so the bench keeps the default rather than calibrating to one reading.
//
// Targets of the storefront pages: issue 39's (performance >= 95, TBT <= 200 ms, CLS 0,
// accessibility 100) and issue 11's others (best practices and SEO >= 95, LCP < 2.0 s). The account
// pages, rendered on the server for their signed-in owner (docs/decisions/014), have the same
// targets but SEO (they are not for search engines: 'noindex' and robots.txt; reported for
// context), as issue 15 asks. Every figure goes to `npm run bench`'s table through reportFigures, which fails
// the run on a missed target; this script exits 1 when a page cannot be measured.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { throttling as presets } from 'lighthouse/core/config/constants.js';
import type { Product } from '#common/schemas/product';
import { startShopServer } from '../tests/helpers/browser';
import { seedCustomerWithOrder } from '../tests/helpers/browser-orders';
import { figure, reportFigures, type Figure } from './support/figures';

interface PageFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

type Comparison = '<' | '<=' | '>=';
type Targets = { [K in keyof PageFigures]: [Comparison, number] | null };

/** The storefront's pages, rendered on the server: issue 39's targets, issue 11's for the rest. */
const STOREFRONT_TARGETS: Targets = {
  performance: ['>=', 95],
  accessibility: ['>=', 100],
  bestPractices: ['>=', 95],
  seo: ['>=', 95],
  lcpMs: ['<', 2000],
  tbtMs: ['<=', 200],
  cls: ['<=', 0],
};

/** The account pages: the storefront's targets, behind a sign-in and kept out of search engines. */
const ACCOUNT_TARGETS: Targets = { ...STOREFRONT_TARGETS, seo: null };

const LABELS: { [K in keyof PageFigures]: [string, string] } = {
  performance: ['performance', ''],
  accessibility: ['accessibility', ''],
  bestPractices: ['best practices', ''],
  seo: ['SEO', ''],
  lcpMs: ['LCP', 'ms'],
  tbtMs: ['TBT', 'ms'],
  cls: ['CLS', ''],
};

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** The element Lighthouse took as the largest contentful paint, per page (last run). */
const lcpElements = new Map<string, string>();

let cpuSlowdownMultiplier = presets.mobileSlow4G.cpuSlowdownMultiplier;
const benchmarkIndexes: number[] = [];

async function runLighthouse(url: string, port: number, cookie?: string): Promise<PageFigures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    throttling: { ...presets.mobileSlow4G, cpuSlowdownMultiplier },
    // A signed-in page: the customer's session travels with every request of the load.
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError, environment, finalDisplayedUrl } = result.lhr;
  benchmarkIndexes.push(environment.benchmarkIndex);
  if (runtimeError) throw new Error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
  // A signed-in page that sent Lighthouse to the sign-in page would be measuring the wrong page.
  if (new URL(finalDisplayedUrl).pathname !== new URL(url).pathname)
    throw new Error(`${url} ended on ${finalDisplayedUrl}`);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  // Lighthouse 13 names the element in its LCP breakdown insight (a 'node' item).
  const lcpDetails = audits['lcp-breakdown-insight']?.details as
    { items?: { type?: string; selector?: string; nodeLabel?: string }[] } | undefined;
  const node = lcpDetails?.items?.find((item) => item.type === 'node');
  const snippet = node ? `${node.selector ?? ''} "${node.nodeLabel ?? ''}"` : undefined;
  if (snippet) lcpElements.set(url, snippet.slice(0, 160));
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
  };
}

interface PagePlan {
  label: string;
  path: string;
  targets: Targets;
  cookie?: string;
}

const runs = Number(arg('runs') ?? 3);
const givenBase = arg('base');
const server = givenBase ? undefined : await startShopServer({ seedDemo: true, pgliteTemplate: false });
const base = givenBase ?? server!.baseUrl;
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
let failed = false;
try {
  const products = (await (await fetch(`${base}/api/products`)).json()) as { products: Product[] };
  const given = arg('pages')?.split(',').filter(Boolean);
  // Given account pages are measured signed in, as below (when this bench started the shop).
  const givenCookie =
    given?.some((path) => path.startsWith('/profile')) && server
      ? (await seedCustomerWithOrder(server, products.products.at(-1)!, 'bench')).cookie
      : undefined;
  const pages: PagePlan[] = given
    ? given.map((path) => ({
        label: path,
        path,
        ...(path.startsWith('/profile')
          ? { targets: ACCOUNT_TARGETS, cookie: givenCookie }
          : { targets: STOREFRONT_TARGETS }),
      }))
    : [
        { label: '/', path: '/', targets: STOREFRONT_TARGETS },
        {
          label: 'product URL',
          path: `/products/${products.products[0]!.id}`,
          targets: STOREFRONT_TARGETS,
        },
        { label: '/login', path: '/login', targets: STOREFRONT_TARGETS },
        { label: '/admin/login', path: '/admin/login', targets: STOREFRONT_TARGETS },
      ];
  // The account pages, signed in as a customer who has something on each (needs the outbox of a
  // shop this bench started). The last product: the first is the product URL's.
  if (!given && server) {
    const customer = await seedCustomerWithOrder(server, products.products.at(-1)!, 'bench');
    for (const path of ['/profile/orders', '/profile/messages', '/profile/wallet', '/profile/settings'])
      pages.push({ label: path, path, targets: ACCOUNT_TARGETS, cookie: customer.cookie });
  } else if (!given) {
    console.error('--base: the account pages are not measured (they need a customer this bench makes)');
  }
  const givenSlowdown = arg('cpu-slowdown');
  if (givenSlowdown) cpuSlowdownMultiplier = Number(givenSlowdown);

  const figures: Figure[] = [];
  for (const { label, path, targets, cookie } of pages) {
    const results: PageFigures[] = [];
    // A run Lighthouse itself could not trace (NO_NAVSTART and the like) is run again, twice at most.
    for (let attempt = 0; results.length < runs && attempt < runs + 2; attempt++) {
      try {
        results.push(await runLighthouse(`${base}${path}`, chrome.port, cookie));
      } catch (error) {
        console.error(`${label}: a run failed (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    if (results.length < runs) failed = true;
    if (results.length === 0) continue;
    for (const key of Object.keys(LABELS) as (keyof PageFigures)[]) {
      const [what, unit] = LABELS[key];
      const target = targets[key];
      const value = median(results.map((r) => r[key]));
      figures.push(figure(`pages: ${label} ${what}`, value, unit, target ? { target } : {}));
    }
  }

  console.log(
    `Lighthouse mobile, median of ${runs} runs; CPU slowdown ${cpuSlowdownMultiplier}x, host BenchmarkIndex median ${Math.round(median(benchmarkIndexes))} (Lighthouse's 4x assumes about 1,530)`,
  );
  console.log('Largest contentful paint, last run of each page:');
  for (const [url, element] of lcpElements) console.log(`  ${new URL(url).pathname}: ${element}`);
  reportFigures(figures);
} finally {
  chrome.kill();
  await server?.stop();
}
process.exit(failed ? 1 : 0);
