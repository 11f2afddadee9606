/**
 * The local ledger's RPC websocket on the same path (`ws://host/local-chain`): the subscriptions
 * `@solana/web3.js` uses to confirm a transaction (`signatureSubscribe`), plus `slotSubscribe`,
 * in a node's message shapes. web3.js looks for the websocket on the next port unless told, so a
 * client passes `wsEndpoint` (README). Only in local mode.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LedgerClient, LocalChainHost } from './local-chain';

const LOCAL_CHAIN_PATH = '/local-chain';

export function attachLocalChainSockets(server: Server, host: LocalChainHost): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://local').pathname !== LOCAL_CHAIN_PATH) return;
    wss.handleUpgrade(request, socket, head, (ws) => serveSocket(ws, host));
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

function serveSocket(ws: WebSocket, host: LocalChainHost): void {
  // Messages are taken from the start, each answered once the ledger is open, in order.
  const ledgerReady = host.get().then((chain) => chain.ledger);
  ledgerReady.catch(() => ws.terminate());
  let nextId = 1;
  const subscriptions = new Map<number, () => void>();
  const send = (message: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const notify = (method: string, subscription: number, result: unknown) =>
    send({ jsonrpc: '2.0', method, params: { result, subscription } });

  ws.on('message', (data: Buffer) => {
    void ledgerReady.then(
      (ledger) => answer(ledger, data),
      () => undefined,
    );
  });
  const answer = (ledger: LedgerClient, data: Buffer) => {
    let request: { id?: number | string; method?: string; params?: unknown[] };
    try {
      request = JSON.parse(data.toString('utf8')) as typeof request;
    } catch {
      send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      return;
    }
    if (request.id === undefined) return; // a notification (web3.js pings this way)
    const reply = (result: unknown) => send({ jsonrpc: '2.0', result, id: request.id });
    const params = Array.isArray(request.params) ? request.params : [];
    switch (request.method) {
      case 'signatureSubscribe': {
        const signature = typeof params[0] === 'string' ? params[0] : '';
        const id = nextId++;
        reply(id);
        const done = (slot: number, err: unknown) => {
          subscriptions.get(id)?.();
          subscriptions.delete(id);
          notify('signatureNotification', id, { context: { slot }, value: { err } });
        };
        // Listening first, then looking: a transaction landing in between is caught either way.
        subscriptions.set(
          id,
          ledger.onTransaction((record) => {
            if (record.signature === signature) done(record.slot, record.err);
          }),
        );
        void ledger.getTransaction(signature).then(
          (known) => {
            if (known && subscriptions.has(id)) done(known.slot, known.err);
          },
          () => undefined,
        );
        return;
      }
      case 'slotSubscribe': {
        const id = nextId++;
        reply(id);
        subscriptions.set(
          id,
          ledger.onTransaction((record) =>
            notify('slotNotification', id, { parent: record.slot - 1, root: record.slot, slot: record.slot }),
          ),
        );
        return;
      }
      case 'signatureUnsubscribe':
      case 'slotUnsubscribe': {
        const id = Number(params[0]);
        const stop = subscriptions.get(id);
        stop?.();
        subscriptions.delete(id);
        reply(true);
        return;
      }
      default:
        send({ jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: request.id });
    }
  };
  ws.on('close', () => {
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  });
}
