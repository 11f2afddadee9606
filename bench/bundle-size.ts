// The landing route's first-load JavaScript, gzipped: the entry script and its modulepreloads from
// dist/web/index.html, the landing page's lazy route chunk (routes/storefront/home), and every
// chunk those import statically, each counted once. Dynamic imports (admin, account, checkout,
// charts, wallets, Stripe, QR codes) are not part of the first load and are not counted.
//
//   npx tsx bench/bundle-size.ts           a table of files and the total against the budget
//   npx tsx bench/bundle-size.ts --json    the same as JSON
//
// Exits 1 when the total is over the budget. Needs a built app (`npm run build:web`).
// tests/integration/bundle-budget.test.ts runs the same measurement.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 150 * 1024;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The landing page's route module; its chunk is named after it. */
const LANDING_CHUNK = /^home-[\w-]+\.js$/;

export type ChunkReason = 'entry' | 'modulepreload' | 'landing route' | 'import';

export interface ChunkSize {
  file: string;
  reason: ChunkReason;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  budgetBytes: number;
  totalBytes: number;
  totalGzipBytes: number;
  withinBudget: boolean;
  files: ChunkSize[];
}

const gzipSize = (buf: Buffer) => gzipSync(buf, { level: 9 }).length;

/** `/assets/x.js` (from the page) or `./x.js` (relative to the importing chunk) to a file path. */
function resolveAsset(distDir: string, ref: string, fromFile: string): string {
  if (ref.startsWith('/')) return path.join(distDir, ref);
  return path.resolve(path.dirname(fromFile), ref);
}

/** Static `import ... from "./x.js"`, `import "./x.js"` and `export ... from "./x.js"` of a chunk. */
function staticImports(code: string): string[] {
  const re = /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  return [...code.matchAll(re)].map((m) => m[1]!);
}

function dynamicImports(code: string): string[] {
  return [...code.matchAll(/import\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g)].map((m) => m[1]!);
}

export function measureLandingBundle(distDir: string = path.join(ROOT, 'dist/web')): BundleReport {
  const htmlPath = path.join(distDir, 'index.html');
  if (!existsSync(htmlPath)) throw new Error(`${htmlPath} is missing: run \`npm run build:web\` first`);
  const html = readFileSync(htmlPath, 'utf8');
  const entries = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+\.js)"/g)].map((m) =>
    resolveAsset(distDir, m[1]!, htmlPath),
  );
  const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"/g)].map(
    (m) => resolveAsset(distDir, m[1]!, htmlPath),
  );
  if (entries.length === 0) throw new Error('no entry <script type="module" src> in dist/web/index.html');

  // The landing route chunk: the dynamic import of home-*.js found in the first chunks.
  let landing: string | undefined;
  for (const file of [...entries, ...preloads]) {
    if (!existsSync(file)) continue;
    const hit = dynamicImports(readFileSync(file, 'utf8')).find((ref) =>
      LANDING_CHUNK.test(path.basename(ref)),
    );
    if (hit) {
      landing = resolveAsset(distDir, hit, file);
      break;
    }
  }
  if (!landing) {
    const found = readdirSync(path.join(distDir, 'assets')).filter((f) => LANDING_CHUNK.test(f));
    if (found.length !== 1)
      throw new Error(`cannot tell the landing route chunk (home-*.js): found ${found.length}`);
    landing = path.join(distDir, 'assets', found[0]!);
  }

  const seen = new Map<string, ChunkSize>();
  const visit = (file: string, reason: ChunkReason) => {
    if (seen.has(file)) return;
    if (!existsSync(file)) throw new Error(`missing chunk ${path.relative(distDir, file)}`);
    const buf = readFileSync(file);
    seen.set(file, {
      file: path.relative(distDir, file),
      reason,
      bytes: buf.length,
      gzipBytes: gzipSize(buf),
    });
    for (const ref of staticImports(buf.toString('utf8'))) visit(resolveAsset(distDir, ref, file), 'import');
  };
  for (const file of entries) visit(file, 'entry');
  for (const file of preloads) visit(file, 'modulepreload');
  visit(landing, 'landing route');

  const files = [...seen.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
  const totalGzipBytes = files.reduce((n, f) => n + f.gzipBytes, 0);
  const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
  return {
    budgetBytes: BUDGET_BYTES,
    totalBytes,
    totalGzipBytes,
    withinBudget: totalGzipBytes <= BUDGET_BYTES,
    files,
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = measureLandingBundle();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log('Landing route, first load (JavaScript, gzip level 9)\n');
    for (const f of report.files) {
      console.log(
        `  ${kb(f.gzipBytes).padStart(9)}  ${kb(f.bytes).padStart(9)} raw  ${f.file}  (${f.reason})`,
      );
    }
    const verdict = report.withinBudget ? 'OK' : 'OVER BUDGET';
    console.log(
      `\n  total ${kb(report.totalGzipBytes)} gzip (${kb(report.totalBytes)} raw), budget ${kb(report.budgetBytes)}: ${verdict}`,
    );
  }
  process.exitCode = report.withinBudget ? 0 : 1;
}
