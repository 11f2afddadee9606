// `npm run backup` / `npm run restore ARCHIVE`: build when needed, then run the server bundle's
// backup command with the shop's own settings (DATA_DIR, DATABASE_URL, S3_*; src/server/db/backup.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureBuild, root } from './ensure-build.mjs';

ensureBuild();
// npm runs scripts in the package root (where DATA_DIR=./data is, as for `npm start`); a file named
// on the command line is where the user stood when typing it.
const typedIn = process.env.INIT_CWD ?? process.cwd();
const [command, ...rest] = process.argv.slice(2);
const args = rest.map((arg, i) =>
  arg.startsWith('--') || (command === 'backup' && rest[i - 1] !== '--out')
    ? arg
    : path.resolve(typedIn, arg),
);
const res = spawnSync(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'dist/server/backup-main.js'), command, ...args],
  { stdio: 'inherit', env: { NODE_ENV: 'production', ...process.env } },
);
process.exit(res.status ?? 1);
