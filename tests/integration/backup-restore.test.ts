import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import * as tar from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBackupPlaces } from '#server/config';
import { BackupError, createBackup, restoreBackup } from '#server/db/backup';
import { openDatabase, type Database } from '#server/db/client';
import { migrate } from '#server/db/migrate';
import { createLogger } from '#server/lib/logger';
import { migrationsDir } from '#server/lib/paths';
import { createOrder } from '../factories/order';
import { BACKENDS, TEST_DATABASE_URL, dropDatabase, withPostgres, type Backend } from '../helpers/databases';
import { startTestApp } from '../helpers/test-app';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/databases';

/**
 * `npm run backup` / `npm run restore` (src/server/db/backup.ts): a shop with orders, airdrop
 * claims, an uploaded photo, its demo ledger and its generated secrets is backed up, then restored
 * into an empty DATA_DIR and a fresh database, where a new server finds all of it.
 */

const logger = createLogger('error');
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `shop-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty PostgreSQL database (no tables: not the migrated template the other tests start from). */
async function emptyPostgres(): Promise<ScratchDatabase> {
  const name = `shop_restore_${randomBytes(6).toString('hex')}`;
  await withPostgres(TEST_DATABASE_URL!, (client) => client.query(`create database ${name}`));
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const scratch = { url: url.toString(), drop: () => dropDatabase(TEST_DATABASE_URL!, name) };
  cleanups.push(() => scratch.drop());
  return scratch;
}

/** The shop's database in DATA_DIR (PGlite on disk, as `npm start` keeps it) or a PostgreSQL one. */
async function openShopDatabase(backend: Backend, dataDir: string, scratch: ScratchDatabase | undefined) {
  const database: Database = await openDatabase({
    databaseUrl: backend === 'postgres' ? scratch!.url : undefined,
    pgliteDir: path.join(dataDir, 'pglite'),
    logger,
  });
  await migrate(database, migrationsDir, logger);
  return database;
}

function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

describe.each(BACKENDS)('backup and restore (%s)', (backend) => {
  it('backs up a shop with orders, airdrop claims, photos, its ledger and secrets; restores it into an empty DATA_DIR and a fresh database', async () => {
    const source = tempDir('source');
    const sourceScratch = backend === 'postgres' ? await createScratchDatabase('postgres') : undefined;
    if (sourceScratch) cleanups.push(() => sourceScratch.drop());
    const sourceDb = await openShopDatabase(backend, source, sourceScratch);
    const shop = await startTestApp({
      backend,
      database: sourceDb,
      scratch: sourceScratch ?? { url: undefined, drop: async () => undefined },
      env: { DATA_DIR: source },
    });
    const db = shop.deps.database.db;
    const orders = [
      await createOrder(db),
      await createOrder(db),
      await createOrder(db, { status: 'shipped' }),
    ];
    await db
      .insertInto('airdrop_claims')
      .values([
        {
          wallet_address: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
          amount_lamports: '1500000',
          created_at: new Date(),
        },
        {
          wallet_address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
          amount_lamports: '2500000',
          created_at: new Date(),
        },
      ])
      .execute();
    const photo = randomBytes(2048);
    await shop.deps.storage.put('products/backup-test-800.webp', photo, 'image/webp');
    await shop.deps.localChain!.get();
    const places = loadBackupPlaces({ NODE_ENV: 'test', DATA_DIR: source, DATABASE_URL: sourceScratch?.url });
    const archive = path.join(tempDir('archive'), 'shop.tar.gz');

    if (backend === 'pglite') {
      // PGlite's files belong to the running shop: a backup waits for it to stop.
      await expect(createBackup(places, archive)).rejects.toThrow(/stop it first/);
    }
    await shop.close();
    await sourceDb.close();
    const ledgerBefore = filesUnder(path.join(source, 'local-ledger'));
    expect(Object.keys(ledgerBefore).length).toBeGreaterThan(0);

    const manifest = await createBackup(places, archive);
    expect(manifest).toMatchObject({ database: backend, uploads: true, localLedger: true, secrets: true });
    expect(manifest.migrations).toEqual(
      readdirSync(migrationsDir)
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    );

    // Into an empty DATA_DIR and a database with no tables.
    const target = tempDir('target');
    const targetScratch = backend === 'postgres' ? await emptyPostgres() : undefined;
    const targetPlaces = loadBackupPlaces({
      NODE_ENV: 'test',
      DATA_DIR: target,
      DATABASE_URL: targetScratch?.url,
    });
    await restoreBackup(targetPlaces, archive);
    // A second restore finds the places taken and changes nothing.
    await expect(restoreBackup(targetPlaces, archive)).rejects.toThrow(BackupError);

    expect(readFileSync(path.join(target, 'secrets.json'), 'utf8')).toBe(
      readFileSync(path.join(source, 'secrets.json'), 'utf8'),
    );
    expect(filesUnder(path.join(target, 'local-ledger'))).toEqual(ledgerBefore);

    const restoredDb = await openShopDatabase(backend, target, targetScratch);
    const restored = await startTestApp({
      backend,
      database: restoredDb,
      scratch: targetScratch ?? { url: undefined, drop: async () => undefined },
      env: { DATA_DIR: target },
    });
    try {
      const rdb = restored.deps.database.db;
      const ids = (
        await rdb.selectFrom('orders').select(['id', 'status']).orderBy('created_at').execute()
      ).map((o) => o.id);
      expect(ids.sort()).toEqual(orders.map((o) => o.id).sort());
      const items = await rdb.selectFrom('order_items').select('order_id').execute();
      expect(items).toHaveLength(3);
      const claims = await rdb
        .selectFrom('airdrop_claims')
        .select(['wallet_address', 'amount_lamports'])
        .orderBy('amount_lamports')
        .execute();
      expect(claims.map((c) => [c.wallet_address, String(c.amount_lamports)])).toEqual([
        ['9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', '1500000'],
        ['4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', '2500000'],
      ]);
      const res = await restored.app.request('/uploads/products/backup-test-800.webp');
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(photo)).toBe(true);
      // The restored secrets are the ones in use: the encryption key reads what the source sealed.
      expect(restored.deps.config.authSecret).toBe(
        (JSON.parse(readFileSync(path.join(source, 'secrets.json'), 'utf8')) as { authSecret: string })
          .authSecret,
      );
    } finally {
      await restored.close();
      await restoredDb.close();
    }
  });

  it('refuses a missing archive and an archive that is not a shop backup, writing nothing', async () => {
    const target = tempDir('wrong');
    const places = loadBackupPlaces({ NODE_ENV: 'test', DATA_DIR: target });
    await expect(restoreBackup(places, path.join(target, 'missing.tar.gz'))).rejects.toThrow(/No archive/);
    const notBackup = path.join(tempDir('not-backup'), 'photos.tar.gz');
    writeFileSync(path.join(target, 'photo.webp'), randomBytes(64));
    await tar.create({ gzip: true, file: notBackup, cwd: target }, ['photo.webp']);
    await expect(restoreBackup(places, notBackup)).rejects.toThrow(/not a shop backup/);
    expect(existsSync(path.join(target, 'pglite'))).toBe(false);
    expect(existsSync(path.join(target, 'uploads'))).toBe(false);
  });
});
