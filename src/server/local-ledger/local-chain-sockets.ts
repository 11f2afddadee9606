/**
 * The local ledger's RPC websocket on the same path (`ws://host/local-chain`): the subscriptions
 * `@solana/web3.js` uses to confirm a transaction (`signatureSubscribe`), plus `slotSubscribe`,
 * in a node's message shapes. web3.js looks for the websocket on the next port unless told, so a
 * client passes `wsEndpoint` (README). Only in local mode.
 *
 * Anyone may open it, so each client (resolved as for HTTP: X-Forwarded-For only from
 * TRUSTED_PROXIES; an IPv6 client by its /64) holds at most `maxPerClient` sockets open, its /56
 * `networkMultiplier` times as many: the upgrade past them is refused with HTTP 429. One socket
 * holds at most `maxSubscriptionsPerSocket` subscriptions: past them a subscribe call answers a
 * JSON-RPC error and the socket stays open.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { clientKeyOf, clientNetworkKeyOf, resolveClientIp, type TrustedProxies } from '../lib/client-ip';
import type { LedgerClient, LocalChainHost } from './local-chain';

const LOCAL_CHAIN_PATH = '/local-chain';

export interface LocalChainSocketLimits {
  maxPerClient: number;
  maxSubscriptionsPerSocket: number;
}

/** What the websocket needs of the shop's config. */
export interface LocalChainSocketsConfig {
  trustedProxies: TrustedProxies;
  localChain: { networkMultiplier: number; sockets: LocalChainSocketLimits };
}

export function attachLocalChainSockets(
  server: Server,
  host: LocalChainHost,
  config: LocalChainSocketsConfig,
): () => void {
  const { maxPerClient, maxSubscriptionsPerSocket } = config.localChain.sockets;
  const maxPerNetwork = maxPerClient * config.localChain.networkMultiplier;
  // Open sockets by client key (IPv4 address, IPv6 /64) and by network key (IPv6 /56).
  const perClient = new Map<string, number>();
  const perNetwork = new Map<string, number>();
  const add = (counts: Map<string, number>, key: string, delta: number) => {
    const next = (counts.get(key) ?? 0) + delta;
    if (next > 0) counts.set(key, next);
    else counts.delete(key);
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://local').pathname !== LOCAL_CHAIN_PATH) return;
    const forwarded = request.headers['x-forwarded-for'];
    const ip = resolveClientIp(
      request.socket.remoteAddress,
      Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
      config.trustedProxies,
    );
    const key = clientKeyOf(ip) ?? 'unknown';
    const network = clientNetworkKeyOf(ip) ?? 'unknown';
    if ((perClient.get(key) ?? 0) >= maxPerClient || (perNetwork.get(network) ?? 0) >= maxPerNetwork) {
      refuse(socket, maxPerClient);
      return;
    }
    // The place is taken now and given back when the connection closes, however it ends.
    add(perClient, key, 1);
    add(perNetwork, network, 1);
    socket.once('close', () => {
      add(perClient, key, -1);
      add(perNetwork, network, -1);
    });
    wss.handleUpgrade(request, socket, head, (ws) => serveSocket(ws, host, maxSubscriptionsPerSocket));
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

/** Answers the upgrade with HTTP 429 and a JSON-RPC error body, then closes the connection. */
function refuse(socket: Duplex, maxPerClient: number): void {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: 429, message: `Too many open websockets: at most ${maxPerClient} per client` },
    id: null,
  });
  socket.once('error', () => undefined);
  socket.once('finish', () => socket.destroy());
  socket.end(
    'HTTP/1.1 429 Too Many Requests\r\n' +
      'Connection: close\r\n' +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      '\r\n' +
      body,
  );
}

function serveSocket(ws: WebSocket, host: LocalChainHost, maxSubscriptions: number): void {
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
    if (
      (request.method === 'signatureSubscribe' || request.method === 'slotSubscribe') &&
      subscriptions.size >= maxSubscriptions
    ) {
      send({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Too many subscriptions: at most ${maxSubscriptions} per socket (unsubscribe first)`,
        },
        id: request.id,
      });
      return;
    }
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
