import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import * as tar from 'tar';
import type { BackupPlaces } from '../config';

/**
 * `npm run backup` and `npm run restore`: one .tar.gz holding what a shop needs to come back.
 *
 * - the database: `pg_dump --format=custom` of PostgreSQL (the shop may keep running), or PGlite's
 *   data directory (the shop must be stopped: one process owns those files);
 * - the uploaded photos of the local storage driver (an S3 bucket is backed up by its provider);
 * - the demo ledger's state and keys, when DATA_DIR has them (local mode);
 * - DATA_DIR/secrets.json (the generated session secret and the key that encrypts API keys saved
 *   in the admin), unless `--no-secrets`: without it, saved API keys cannot be read after a restore.
 *
 * A restore goes into a stopped shop's empty places only (an empty database, no PGlite data, no
 * uploads, no ledger): it never merges into or overwrites a shop.
 */

const run = promisify(execFile);
const FORMAT = 1;

export interface BackupManifest {
  format: typeof FORMAT;
  createdAt: string;
  database: 'postgres' | 'pglite';
  uploads: boolean;
  localLedger: boolean;
  secrets: boolean;
  /** The migrations the database had: a restore needs a build that knows at least these. */
  migrations: string[];
}

export class BackupError extends Error {
  override name = 'BackupError';
}

const pgliteDir = (places: BackupPlaces) => path.join(places.dataDir, 'pglite');
const ledgerDir = (places: BackupPlaces) => path.join(places.dataDir, 'local-ledger');
const secretsFile = (places: BackupPlaces) => path.join(places.dataDir, 'secrets.json');
const hasFiles = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

/** PGlite keeps postmaster.pid while a process has the database open (removed on a clean stop). */
function refuseRunningPglite(places: BackupPlaces): void {
  if (existsSync(path.join(pgliteDir(places), 'postmaster.pid'))) {
    throw new BackupError(
      `The shop is running on ${pgliteDir(places)} (its postmaster.pid is there): stop it first. ` +
        'If it is not running (it crashed), start it once and stop it, then back up.',
    );
  }
}

async function tool(name: 'pg_dump' | 'pg_restore', args: string[]): Promise<void> {
  try {
    await run(name, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new BackupError(
        `${name} was not found: install the PostgreSQL client tools (Debian: postgresql-client) of your server's major version or newer.`,
      );
    }
    throw new BackupError(`${name} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Writes the archive to `out` and returns what it holds. */
export async function createBackup(
  places: BackupPlaces,
  out: string,
  options: { secrets?: boolean } = {},
): Promise<BackupManifest> {
  const staging = mkdtempSync(path.join(tmpdir(), 'shop-backup-'));
  try {
    let migrations: string[];
    if (places.databaseUrl) {
      const url = places.databaseUrl;
      migrations = await withClient(url, async (client) =>
        (await client.query<{ name: string }>('select name from schema_migrations order by name')).rows.map(
          (r) => r.name,
        ),
      );
      await tool('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--file=${path.join(staging, 'database.pgdump')}`,
        `--dbname=${url}`,
      ]);
    } else {
      if (!hasFiles(pgliteDir(places))) throw new BackupError(`No PGlite database in ${pgliteDir(places)}`);
      refuseRunningPglite(places);
      cpSync(pgliteDir(places), path.join(staging, 'pglite'), { recursive: true });
      migrations = await pgliteMigrations(path.join(staging, 'pglite'));
    }
    const uploads = places.uploadsDir !== null && hasFiles(places.uploadsDir);
    if (uploads) cpSync(places.uploadsDir!, path.join(staging, 'uploads'), { recursive: true });
    const localLedger = hasFiles(ledgerDir(places));
    if (localLedger) cpSync(ledgerDir(places), path.join(staging, 'local-ledger'), { recursive: true });
    const secrets = options.secrets !== false && existsSync(secretsFile(places));
    if (secrets) cpSync(secretsFile(places), path.join(staging, 'secrets.json'));
    const manifest: BackupManifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      database: places.databaseUrl ? 'postgres' : 'pglite',
      uploads,
      localLedger,
      secrets,
      migrations,
    };
    writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.create({ gzip: true, file: out, cwd: staging, portable: true }, readdirSync(staging));
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The migrations recorded in a copy of a PGlite data directory (opened, read, closed). */
async function pgliteMigrations(dir: string): Promise<string[]> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  try {
    const res = await db.query<{ name: string }>('select name from schema_migrations order by name');
    return res.rows.map((r) => r.name);
  } finally {
    await db.close();
  }
}

/** Brings the archive back into the places of a stopped shop, which must be empty. */
export async function restoreBackup(places: BackupPlaces, archive: string): Promise<BackupManifest> {
  if (!existsSync(archive)) throw new BackupError(`No archive at ${archive}`);
  const staging = mkdtempSync(path.join(tmpdir(), 'shop-restore-'));
  try {
    await tar.extract({ file: archive, cwd: staging, strict: true });
    const manifestFile = path.join(staging, 'manifest.json');
    if (!existsSync(manifestFile))
      throw new BackupError(`${archive} is not a shop backup (no manifest.json)`);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
    if (manifest.format !== FORMAT) throw new BackupError(`Unknown backup format ${String(manifest.format)}`);

    // Every place is checked before anything is written: a refused restore changes nothing.
    if (manifest.database === 'postgres' && !places.databaseUrl) {
      throw new BackupError(
        'This backup is of a PostgreSQL database: set DATABASE_URL to an empty database.',
      );
    }
    if (manifest.database === 'pglite' && places.databaseUrl) {
      throw new BackupError(
        'This backup is of the embedded PGlite database: unset DATABASE_URL to restore it.',
      );
    }
    if (places.databaseUrl) {
      const tables = await withClient(places.databaseUrl, async (client) =>
        Number(
          (
            await client.query<{ n: string }>(
              "select count(*) as n from information_schema.tables where table_schema = 'public'",
            )
          ).rows[0]!.n,
        ),
      );
      if (tables > 0) {
        throw new BackupError(
          'DATABASE_URL names a database that has tables: restore into a new, empty one.',
        );
      }
    } else if (hasFiles(pgliteDir(places))) {
      throw new BackupError(`${pgliteDir(places)} already holds a database: restore into an empty DATA_DIR.`);
    }
    if (manifest.uploads) {
      if (places.uploadsDir === null) {
        throw new BackupError(
          'The backup has uploaded photos but the shop stores them in S3: unset S3_BUCKET to restore them to disk, or copy them to the bucket.',
        );
      }
      if (hasFiles(places.uploadsDir)) throw new BackupError(`${places.uploadsDir} is not empty.`);
    }
    if (manifest.localLedger && hasFiles(ledgerDir(places))) {
      throw new BackupError(`${ledgerDir(places)} is not empty.`);
    }
    if (manifest.secrets && existsSync(secretsFile(places))) {
      const current = readFileSync(secretsFile(places), 'utf8');
      if (current !== readFileSync(path.join(staging, 'secrets.json'), 'utf8')) {
        throw new BackupError(`${secretsFile(places)} holds other secrets: restore into an empty DATA_DIR.`);
      }
    }

    if (places.databaseUrl) {
      await tool('pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        `--dbname=${places.databaseUrl}`,
        path.join(staging, 'database.pgdump'),
      ]);
    } else {
      cpSync(path.join(staging, 'pglite'), pgliteDir(places), { recursive: true });
    }
    if (manifest.uploads) cpSync(path.join(staging, 'uploads'), places.uploadsDir!, { recursive: true });
    if (manifest.localLedger)
      cpSync(path.join(staging, 'local-ledger'), ledgerDir(places), { recursive: true });
    if (manifest.secrets) cpSync(path.join(staging, 'secrets.json'), secretsFile(places));
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
