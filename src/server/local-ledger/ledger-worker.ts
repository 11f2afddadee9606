/**
 * The ledger worker: the local ledger (litesvm, its JSON-RPC and its files) on a thread of its
 * own, so that a client's heavy request (a batch of account listings, a faucet flood) keeps this
 * thread busy, never the one that serves the shop. Started by local-chain.ts; built as its own
 * file next to the server bundle (package.json build:server).
 *
 * Requests are answered one at a time, the shop's own before clients' (a client's queue never
 * delays the payment watcher more than the one request running). Every processed transaction is
 * announced to the request thread (websocket subscriptions, the payment watcher's wake-up).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { StoredAccount } from './accounts';
import { openLocalChain, type LedgerChain } from './local-chain';
import type { RequestLimits } from './rpc-accounts';

/** What the request thread asks. */
export type LedgerRequest = { id: number } & (
  | { op: 'rpc'; body: string; limits?: RequestLimits }
  | { op: 'setAccount'; account: StoredAccount }
  | { op: 'rent'; dataLength: number }
  | { op: 'getTransaction'; signature: string }
  | { op: 'close' }
);

/** What the worker says: an answer to a request, or news. */
export type LedgerMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  | { event: 'ready' }
  | { event: 'failed'; error: string }
  | {
      event: 'transaction';
      signature: string;
      slot: number;
      err: unknown;
      accountKeys: string[];
    };

export interface LedgerWorkerData {
  dataDir: string;
}

const port = parentPort!;
const post = (message: LedgerMessage) => port.postMessage(message);

async function answer(chain: LedgerChain, request: LedgerRequest): Promise<unknown> {
  switch (request.op) {
    case 'rpc':
      return chain.handle(request.body, request.limits);
    case 'setAccount':
      chain.ledger.setAccount(request.account);
      chain.ledger.save();
      return null;
    case 'rent':
      return chain.ledger.minimumBalanceForRentExemption(request.dataLength);
    case 'getTransaction':
      return chain.ledger.getTransaction(request.signature);
    case 'close':
      chain.close();
      return null;
  }
}

async function main(): Promise<void> {
  const { dataDir } = workerData as LedgerWorkerData;
  const shop: LedgerRequest[] = [];
  const clients: LedgerRequest[] = [];
  let chain: LedgerChain | undefined;
  let running = false;

  const pump = async () => {
    if (running || !chain) return;
    const request = shop.shift() ?? clients.shift();
    if (!request) return;
    running = true;
    try {
      post({ id: request.id, ok: true, value: await answer(chain, request) });
    } catch (err) {
      post({
        id: request.id,
        ok: false,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    } finally {
      running = false;
    }
    // The next one after the event loop turns: requests that arrived meanwhile are queued first.
    if (shop.length > 0 || clients.length > 0) setImmediate(() => void pump());
  };

  port.on('message', (request: LedgerRequest) => {
    (request.op === 'rpc' && request.limits ? clients : shop).push(request);
    void pump();
  });

  try {
    chain = await openLocalChain(dataDir);
  } catch (err) {
    post({ event: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return;
  }
  chain.ledger.onTransaction((record) =>
    post({
      event: 'transaction',
      signature: record.signature,
      slot: record.slot,
      err: record.err,
      accountKeys: record.accountKeys,
    }),
  );
  post({ event: 'ready' });
  void pump();
}

void main();
