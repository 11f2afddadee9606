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
/** React Router's build of the web app: client/ (static files) and server/index.js (the pages' handler). */
export const webDistDir = path.join(projectRoot, 'dist', 'web');
