// `npm run backup` / `npm run restore ARCHIVE`: build when needed, then run the server bundle's
// backup command with the shop's own settings (DATA_DIR, DATABASE_URL, S3_*; src/server/db/backup.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureBuild, root } from './ensure-build.mjs';

ensureBuild();
const res = spawnSync(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'dist/server/backup-main.js'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: { NODE_ENV: 'production', ...process.env } },
);
process.exit(res.status ?? 1);
