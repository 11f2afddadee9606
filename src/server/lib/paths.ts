import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root, found by walking up from this file (works from src/ and from the dist/ bundle). */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'db', 'migrations')))
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export const projectRoot = findRoot();
export const migrationsDir = path.join(projectRoot, 'db', 'migrations');
export const webDistDir = path.join(projectRoot, 'dist', 'web');
/** The storefront's server renderer (`vite build --ssr`, see src/web/entry-server.tsx). */
export const ssrEntryFile = path.join(projectRoot, 'dist', 'ssr', 'entry-server.js');
