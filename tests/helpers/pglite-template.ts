import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * The migrated PGlite template made once by tests/setup/global-setup.ts: test databases start
 * from it instead of running initdb and the migrations again.
 */
let snapshot: Blob | undefined;

/** The template's dump, for an in-memory PGlite (`loadDataDir`, helpers/pglite-pool.ts). */
export function pgliteSnapshot(): Blob {
  snapshot ??= new Blob([readFileSync(path.join(inject('pgliteTemplateDir'), 'dump.tar'))]);
  return snapshot;
}

/** Copies the template's data directory to `dir` (a spawned server's `${DATA_DIR}/pglite`). */
export function copyPgliteTemplate(dir: string): void {
  cpSync(path.join(inject('pgliteTemplateDir'), 'pgdata'), dir, { recursive: true });
}
