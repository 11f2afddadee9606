// `npm run test:deploy`: the production recipe of deploy/ (Caddy, two built instances, PostgreSQL,
// S3, SMTP) run whole on this machine against the built app; needs TEST_DATABASE_URL and caddy.
import { spawnSync } from 'node:child_process';
import { ensureBuild, root } from './ensure-build.mjs';

ensureBuild();
const res = spawnSync(
  'npx',
  ['vitest', 'run', '--config', 'vitest.deploy.config.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(res.status ?? 1);
