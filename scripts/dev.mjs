// `npm run dev`: the API server on :3001 (restarted on change by tsx watch) and Vite on :3000 proxying /api to it.
import { spawn } from 'node:child_process';
import { root } from './ensure-build.mjs';

const env = { ...process.env, PORT: '3001', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:3000' };
const server = spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env,
});
const web = spawn('npx', ['vite'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, API_PORT: '3001' },
});
const stop = () => {
  server.kill('SIGTERM');
  web.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', stop);
web.on('exit', stop);
