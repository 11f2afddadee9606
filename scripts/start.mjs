// `npm start`: build when needed, then serve the shop (embedded database unless DATABASE_URL is set).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuild, root } from './ensure-build.mjs';

ensureBuild();
const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'dist/server/main.js')], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
