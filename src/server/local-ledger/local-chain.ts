/**
 * The local ledger as the server holds it: opened once (on first start it writes the genesis
 * accounts), its JSON-RPC handler, and the named accounts the shop uses. Only in local mode
 * (SOLANA_RPC_URL unset); the files live in DATA_DIR/local-ledger.
 *
 * The ledger itself runs in a worker thread (ledger-worker.ts): litesvm, the JSON-RPC methods and
 * the saving never run on the thread that serves the shop, however heavy a client's request.
 * `lazyLocalChain` is the server's handle on it; `openLocalChain` opens a ledger in the calling
 * thread (the worker's own, or a bench's node process).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StoredAccount } from './accounts';
import { readLocalChainSetup, writeGenesis, type LocalChainSetup } from './genesis';
import { LocalLedger } from './ledger';
import type { LedgerTransaction } from './ledger-store';
import type { LedgerMessage, LedgerRequest, LedgerWorkerData } from './ledger-worker';
import { createRpcHandler } from './rpc';
import type { RequestLimits } from './rpc-accounts';

/** The local ledger in this thread. */
export interface LedgerChain {
  ledger: LocalLedger;
  setup: LocalChainSetup;
  /** Answers a JSON-RPC request body; `limits` for a client's request, none for the shop's own. */
  handle(body: string, limits?: RequestLimits): Promise<string>;
  close(): void;
}

/** Opens (or on first start makes) the ledger of `dataDir` in the calling thread. */
export async function openLocalChain(dataDir: string): Promise<LedgerChain> {
  const dir = path.join(dataDir, 'local-ledger');
  const { ledger, isNew } = await LocalLedger.open(dir);
  const setup = await readLocalChainSetup(dir);
  if (isNew) await writeGenesis(ledger, setup);
  return { ledger, setup, handle: createRpcHandler(ledger), close: () => ledger.close() };
}

/** A processed transaction, as the ledger worker announces it. */
export interface TransactionEvent {
  signature: string;
  slot: number;
  err: unknown;
  accountKeys: string[];
}

/** The ledger as the server's thread reaches it: each call a message to the worker. */
export interface LedgerClient {
  /** Writes an account as it is (tests and tools; a client's JSON-RPC cannot) and saves it. */
  setAccount(account: StoredAccount): Promise<void>;
  minimumBalanceForRentExemption(dataLength: number): Promise<bigint>;
  getTransaction(signature: string): Promise<LedgerTransaction | null>;
  /** Calls `listener` with every transaction processed from now on; returns the unsubscribe. */
  onTransaction(listener: (event: TransactionEvent) => void): () => void;
}

/** The local chain of one server, its ledger in the worker. */
export interface LocalChain {
  ledger: LedgerClient;
  setup: LocalChainSetup;
  /**
   * Answers a JSON-RPC request body. A client's request (with `limits`) is refused with
   * LedgerBusy while MAX_QUEUED_CLIENT_REQUESTS are waiting already; the shop's own never is.
   */
  handle(body: string, limits?: RequestLimits): Promise<string>;
}

/** The local chain of one server: started on first use, saved and stopped with the server. */
export interface LocalChainHost {
  get(): Promise<LocalChain>;
  close(): Promise<void>;
}

/** Clients' requests that may wait for the worker at once; more are refused until it catches up. */
export const MAX_QUEUED_CLIENT_REQUESTS = 64;

/** Too many clients' requests are waiting for the ledger. */
export class LedgerBusy extends Error {
  constructor() {
    super('the local ledger is busy');
  }
}

/**
 * The worker, from the built file beside the server bundle (dist/server/ledger-worker.js), or
 * from source when the server runs from source (tsx, vitest): scripts/tsx-worker.mjs registers
 * tsx's documented ESM API (`register` from tsx/esm/api) in the worker, then imports the source.
 */
function startWorker(data: LedgerWorkerData): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./ledger-worker.js', here), { workerData: data });
  return new Worker(new URL('../../../scripts/tsx-worker.mjs', here), {
    workerData: { ...data, source: new URL('./ledger-worker.ts', here).href },
    execArgv: [],
  });
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  client: boolean;
}

/** Starts the ledger worker and waits until its ledger is open. */
async function spawnLocalChain(
  dataDir: string,
  listeners: Set<(event: TransactionEvent) => void>,
  onExit: () => void,
): Promise<LocalChain & { stop(): Promise<void> }> {
  const worker = startWorker({ dataDir });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let queuedClients = 0;
  let exited: Error | undefined;
  // The process may end while the worker idles; while an answer is awaited, it may not.
  const holdOpen = () => (pending.size > 0 ? worker.ref() : worker.unref());

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: LedgerMessage) => {
      if ('event' in message) {
        if (message.event === 'ready') resolve();
        else if (message.event === 'failed') reject(new Error(message.error));
        else for (const listener of listeners) listener(message);
        return;
      }
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (waiting.client) queuedClients--;
      holdOpen();
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(new Error(message.error));
    });
    worker.on('error', (err) => {
      exited ??= err;
      reject(err);
    });
    worker.on('exit', (code) => {
      exited ??= new Error(`the local ledger worker stopped (exit code ${code})`);
      reject(exited);
      for (const waiting of pending.values()) waiting.reject(exited);
      pending.clear();
      onExit();
    });
  });

  const request = <T>(message: LedgerRequest, client = false): Promise<T> => {
    if (exited) return Promise.reject(exited);
    return new Promise<T>((resolve, reject) => {
      pending.set(message.id, { resolve: resolve, reject, client });
      if (client) queuedClients++;
      holdOpen();
      worker.postMessage(message);
    });
  };
  const id = () => nextId++;

  worker.ref();
  try {
    await ready;
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  holdOpen();
  const setup = await readLocalChainSetup(path.join(dataDir, 'local-ledger'));

  return {
    setup,
    ledger: {
      setAccount: (account) => request<void>({ id: id(), op: 'setAccount', account }),
      minimumBalanceForRentExemption: (dataLength) => request<bigint>({ id: id(), op: 'rent', dataLength }),
      getTransaction: (signature) =>
        request<LedgerTransaction | null>({ id: id(), op: 'getTransaction', signature }),
      onTransaction(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    handle(body, limits) {
      if (limits && queuedClients >= MAX_QUEUED_CLIENT_REQUESTS) return Promise.reject(new LedgerBusy());
      return request<string>({ id: id(), op: 'rpc', body, ...(limits ? { limits } : {}) }, Boolean(limits));
    },
    async stop() {
      if (!exited) {
        // The worker saves and folds its journal; a worker stuck longer than this is stopped anyway.
        await Promise.race([
          request({ id: id(), op: 'close' }).catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
        ]);
      }
      await worker.terminate();
    },
  };
}

export function lazyLocalChain(dataDir: string): LocalChainHost {
  const listeners = new Set<(event: TransactionEvent) => void>();
  let opened: ReturnType<typeof spawnLocalChain> | undefined;
  let closing = false;
  return {
    get: () => {
      if (closing) return Promise.reject(new Error('the local ledger is closed'));
      // A worker that stopped (it crashed) is started again on next use: its files keep the ledger.
      opened ??= spawnLocalChain(dataDir, listeners, () => {
        if (!closing) opened = undefined;
      });
      return opened;
    },
    close: async () => {
      closing = true;
      const chain = await opened?.catch(() => undefined);
      await chain?.stop();
    },
  };
}
