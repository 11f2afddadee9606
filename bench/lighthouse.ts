// Page figures (issue 11): Lighthouse's mobile run (its default: a mid-range phone on a slow 4G
// link, simulated) on the landing page, a product URL, /login and /admin/login, each run three
// times and the median kept; and the landing page's JavaScript as Chromium loads it.
//
//   npm run bench -- lighthouse                 starts a shop on the demo catalogue and measures it
//   npx tsx bench/lighthouse.ts --base URL      measures a shop already running at URL (demo seeded)
//   npx tsx bench/lighthouse.ts --runs 5        more runs per page
//   npx tsx bench/lighthouse.ts --cpu-slowdown 3 another CPU slowdown than Lighthouse's default 4x
//   npx tsx bench/lighthouse.ts --pages /faq,/about  other pages than the four of issue 11
//
// Lighthouse's default 4x CPU slowdown models a mid-tier phone on a host whose BenchmarkIndex is
// about 1,530; the table prints the median index of the runs, since the main-thread figures (TBT
// above all) move with it. On the shared two-core machines here it ranged from 1,077 to 2,235
// within an hour, so the bench keeps the default rather than calibrating to one reading.
//
// Targets: performance >= 95, accessibility 100, best practices and SEO >= 95, LCP < 2.0 s,
// TBT < 150 ms, CLS < 0.05, landing JavaScript <= 120 KB gzipped. The table marks each figure;
// exits 1 only when a page cannot be measured (the figures are reported, not asserted: the
// machines are shared and Lighthouse's simulated throttling still moves with the host's load).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { throttling as presets } from 'lighthouse/core/config/constants.js';
import { chromium } from 'playwright-core';
import { launchChromium, startShopServer } from '../tests/helpers/browser';
import { formatPageScripts, LANDING_TARGET_BYTES, measureScriptsOn } from './page-weight';

interface PageFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

const TARGETS: { [K in keyof PageFigures]: (v: number) => boolean } = {
  performance: (v) => v >= 95,
  accessibility: (v) => v >= 100,
  bestPractices: (v) => v >= 95,
  seo: (v) => v >= 95,
  lcpMs: (v) => v < 2000,
  tbtMs: (v) => v < 150,
  cls: (v) => v < 0.05,
};

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** The element Lighthouse took as the largest contentful paint, for a page that misses LCP. */
const lcpElements = new Map<string, string>();

let cpuSlowdownMultiplier = presets.mobileSlow4G.cpuSlowdownMultiplier;
const benchmarkIndexes: number[] = [];

async function runLighthouse(url: string, port: number): Promise<PageFigures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    throttling: { ...presets.mobileSlow4G, cpuSlowdownMultiplier },
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError, environment } = result.lhr;
  benchmarkIndexes.push(environment.benchmarkIndex);
  if (runtimeError) throw new Error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
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

function format(key: keyof PageFigures, value: number): string {
  const text =
    key === 'cls' ? value.toFixed(3) : key.endsWith('Ms') ? `${Math.round(value)} ms` : String(value);
  return `${text}${TARGETS[key](value) ? '' : ' ✗'}`;
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
  const products = (await (await fetch(`${base}/api/products`)).json()) as { products: { id: string }[] };
  const given = arg('pages')?.split(',').filter(Boolean);
  const pages: (readonly [string, string])[] = given
    ? given.map((path) => [path, path] as const)
    : [
        ['/', '/'],
        ['product URL', `/products/${products.products[0]!.id}`],
        ['/login', '/login'],
        ['/admin/login', '/admin/login'],
      ];
  const givenSlowdown = arg('cpu-slowdown');
  if (givenSlowdown) cpuSlowdownMultiplier = Number(givenSlowdown);
  const rows: string[] = [];
  for (const [label, path] of pages) {
    const figures: PageFigures[] = [];
    // A run Lighthouse itself could not trace (NO_NAVSTART and the like) is run again, twice at most.
    for (let attempt = 0; figures.length < runs && attempt < runs + 2; attempt++) {
      try {
        figures.push(await runLighthouse(`${base}${path}`, chrome.port));
      } catch (error) {
        console.error(`${label}: a run failed (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    if (figures.length < runs) failed = true;
    if (figures.length === 0) continue;
    const med = Object.fromEntries(
      (Object.keys(TARGETS) as (keyof PageFigures)[]).map((k) => [k, median(figures.map((f) => f[k]))]),
    ) as unknown as PageFigures;
    rows.push(
      `| ${label} | ${(Object.keys(TARGETS) as (keyof PageFigures)[]).map((k) => format(k, med[k])).join(' | ')} |`,
    );
  }
  const browser = await launchChromium().catch(() => chromium.launch({ args: ['--no-sandbox'] }));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const scripts = await measureScriptsOn(await context.newPage(), `${base}/`);
  await browser.close();

  console.log(
    `Lighthouse mobile, median of ${runs} runs (✗: misses its target); CPU slowdown ${cpuSlowdownMultiplier}x, host BenchmarkIndex median ${Math.round(median(benchmarkIndexes))} (Lighthouse's 4x assumes about 1,530)\n`,
  );
  console.log('| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('\nLargest contentful paint, last run of each page:');
  for (const [url, element] of lcpElements) console.log(`  ${new URL(url).pathname}: ${element}`);
  const kb = scripts.totalGzipBytes / 1024;
  console.log(
    `\nLanding page JavaScript: ${kb.toFixed(1)} KB gzipped (${(scripts.totalTransferBytes / 1024).toFixed(1)} KB on the wire), target ${LANDING_TARGET_BYTES / 1024} KB${scripts.totalGzipBytes <= LANDING_TARGET_BYTES ? '' : ' ✗'}`,
  );
  console.log(formatPageScripts(scripts));
} finally {
  chrome.kill();
  await server?.stop();
}
process.exit(failed ? 1 : 0);
