// Builds the SPA and the server bundle when any input is newer than the last build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = [
  'src',
  'public',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'react-router.config.ts',
  'db',
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

export function isBuildStale() {
  if (
    !existsSync(stamp) ||
    !existsSync(path.join(root, 'dist/server/main.js')) ||
    !existsSync(path.join(root, 'dist/server/backup-main.js')) ||
    !existsSync(path.join(root, 'dist/web/server/index.js'))
  )
    return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((i) => newestMtime(path.join(root, i)) > built);
}

export function ensureBuild({ force = false } = {}) {
  if (!force && !isBuildStale()) return;
  console.log('Building the shop (web app and server)...');
  const res = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('Build failed.');
    process.exit(res.status ?? 1);
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  ensureBuild({ force: process.argv.includes('--force') });
