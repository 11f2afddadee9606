// A worker thread's module from TypeScript source, for code that runs from source (tsx, vitest):
// `new Worker(new URL('scripts/tsx-worker.mjs'), { workerData: { source, ... } })`. tsx's ESM API
// (`register` from tsx/esm/api) loads TypeScript in this thread, then `source` (a file URL) is
// imported. Built code starts its worker's built file instead.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.source);
