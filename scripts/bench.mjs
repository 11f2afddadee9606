// `npm run bench`: runs every benchmark under bench/ in name order (bench/*.mjs with node,
// bench/*.ts with tsx), each in its own process. Each reports its figures (bench/support/figures.ts)
// to a file this script names in BENCH_FIGURES_FILE; at the end it prints them as one table (value,
// same-run baseline, target, met) and merges them into bench/results.json (committed), a list of
// { name, value, unit, baseline, target, met } where this run's figures replace same-named ones.
// Exits 1 when a benchmark of this run fails or one of this run's targets is missed.
//
//   npm run bench                  every benchmark
//   npm run bench -- admin         only those whose file name contains "admin"
//   npm run bench -- admin --keep  arguments after the filter go to each benchmark
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'bench');
const [filter, ...rest] = process.argv.slice(2);
const nameFilter = filter && !filter.startsWith('-') ? filter : undefined;
const passThrough = nameFilter ? rest : process.argv.slice(2);

const files = readdirSync(benchDir, { withFileTypes: true })
  .filter((e) => e.isFile() && /\.(mjs|ts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
  .map((e) => e.name)
  .filter((name) => !nameFilter || name.includes(nameFilter))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark under bench/${nameFilter ? ` matching "${nameFilter}"` : ''}`);
  process.exit(1);
}

const figuresDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-figures-'));
const figuresFile = path.join(figuresDir, 'figures.jsonl');
const outcomes = [];
for (const name of files) {
  const file = path.join(benchDir, name);
  const [command, args] = name.endsWith('.ts')
    ? ['npx', ['tsx', file, ...passThrough]]
    : [process.execPath, [file, ...passThrough]];
  console.log(`\n=== bench/${name} ===`);
  const started = Date.now();
  const res = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BENCH_FIGURES_FILE: figuresFile },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  outcomes.push({
    name,
    ok: res.status === 0,
    detail: res.status === 0 ? `${seconds} s` : `exit ${res.status ?? res.signal}`,
  });
}

const figures = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(figuresDir, { recursive: true, force: true });
const resultsFile = path.join(benchDir, 'results.json');
// This run's figures replace the same-named ones of earlier runs; the others stay, so a scale run
// of one bench (`npm run bench -- holder --holders=1000000`) adds its figures beside the full run's.
const earlier = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [];
const fresh = new Set(figures.map((f) => f.name));
const kept = earlier.filter((f) => !fresh.has(f.name));
writeFileSync(resultsFile, `${JSON.stringify([...kept, ...figures], null, 2)}\n`);

const show = (n) => (n === null || n === undefined ? '' : String(n));
const rows = figures.map((f) => [
  f.name,
  `${f.value} ${f.unit}`.trim(),
  f.baseline === null ? '' : `${f.baseline} ${f.unit}`.trim(),
  show(f.target),
  f.met === null ? '' : f.met ? 'met' : 'MISSED',
]);
const header = ['figure', 'value', 'baseline (same run)', 'target', 'met'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) =>
  cells.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const r of rows) console.log(line(r));
const missed = figures.filter((f) => f.met === false);
console.log(
  `\n${figures.length} figures, ${figures.filter((f) => f.met === true).length} targets met, ${missed.length} missed. Written: ${path.relative(root, resultsFile)}`,
);

console.log('\nBenchmarks:');
for (const o of outcomes) console.log(`  ${o.ok ? 'ok    ' : 'FAILED'}  bench/${o.name}  (${o.detail})`);
process.exit(outcomes.every((o) => o.ok) && missed.length === 0 ? 0 : 1);
