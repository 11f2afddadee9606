import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadBackupPlaces } from './config';
import { BackupError, createBackup, restoreBackup } from './db/backup';

/**
 * `npm run backup [-- --out FILE] [--no-secrets]` and `npm run restore ARCHIVE`, with the shop's
 * own settings (DATA_DIR, DATABASE_URL, S3_*). See db/backup.ts for what an archive holds.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const places = loadBackupPlaces();
  if (command === 'backup') {
    const outIndex = rest.indexOf('--out');
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const out = path.resolve(outIndex >= 0 ? rest[outIndex + 1]! : `shop-backup-${stamp}.tar.gz`);
    if (existsSync(out)) throw new BackupError(`${out} already exists`);
    const manifest = await createBackup(places, out, { secrets: !rest.includes('--no-secrets') });
    console.log(`Backup written to ${out}`);
    console.log(describe(manifest));
    if (!manifest.secrets) {
      console.log('Without secrets.json: API keys saved in the admin cannot be read after a restore.');
    }
  } else if (command === 'restore') {
    const archive = rest.find((a) => !a.startsWith('--'));
    if (!archive) throw new BackupError('Usage: npm run restore ARCHIVE');
    const manifest = await restoreBackup(places, path.resolve(archive));
    console.log(`Restored ${archive} (made ${manifest.createdAt})`);
    console.log(describe(manifest));
    console.log('Start the shop: it applies any newer migrations this build has.');
  } else {
    throw new BackupError('Usage: backup-main (backup [--out FILE] [--no-secrets] | restore ARCHIVE)');
  }
}

function describe(m: {
  database: string;
  uploads: boolean;
  localLedger: boolean;
  secrets: boolean;
  migrations: string[];
}) {
  const parts = [
    `database (${m.database}, ${m.migrations.length} migrations)`,
    m.uploads ? 'uploaded photos' : null,
    m.localLedger ? 'the demo ledger' : null,
    m.secrets ? 'secrets.json' : null,
  ].filter(Boolean);
  return `Holds: ${parts.join(', ')}.`;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof BackupError || err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
