// `npm run test:e2e`: only the browser journeys (tests/e2e/*.spec.ts) against the built app.
import { spawnSync } from 'node:child_process';
import { ensureBuild, root } from './ensure-build.mjs';

ensureBuild();
const res = spawnSync('npx', ['vitest', 'run', '--project', 'browser', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
