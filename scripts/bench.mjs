// `npm run bench`: runs every benchmark under bench/ in name order (bench/*.mjs with node,
// bench/*.ts with tsx), each in its own process, and ends with one line per benchmark and its
// outcome. Exits 1 when any benchmark fails.
//
//   npm run bench                  every benchmark
//   npm run bench -- admin         only those whose file name contains "admin"
//   npm run bench -- admin --keep  arguments after the filter go to each benchmark
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
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

const outcomes = [];
for (const name of files) {
  const file = path.join(benchDir, name);
  const [command, args] = name.endsWith('.ts')
    ? ['npx', ['tsx', file, ...passThrough]]
    : [process.execPath, [file, ...passThrough]];
  console.log(`\n=== bench/${name} ===`);
  const started = Date.now();
  const res = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  outcomes.push({
    name,
    ok: res.status === 0,
    detail: res.status === 0 ? `${seconds} s` : `exit ${res.status ?? res.signal}`,
  });
}

console.log('\nBenchmarks:');
for (const o of outcomes) console.log(`  ${o.ok ? 'ok    ' : 'FAILED'}  bench/${o.name}  (${o.detail})`);
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
