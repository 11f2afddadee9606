// `npm run dev`: the shop on :3000 with Vite's dev server inside it (hot reload of the web app,
// pages rendered on the server as in production); the server restarts on a change of its own code.
import { spawn } from 'node:child_process';
import { root } from './ensure-build.mjs';

const env = { ...process.env, WEB_DEV: 'vite', PORT: process.env.PORT ?? '3000' };
const server = spawn(
  'npx',
  ['tsx', 'watch', '--clear-screen=false', '--exclude', 'src/web/**', 'src/server/main.ts'],
  { cwd: root, stdio: 'inherit', env },
);
const stop = () => server.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => process.exit(code ?? 0));
