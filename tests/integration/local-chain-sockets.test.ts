/**
 * The local ledger's websocket (ws://host/local-chain) under one anonymous client: it may hold at
 * most LOCAL_CHAIN_MAX_SOCKETS_PER_CLIENT sockets open (an IPv6 client by its /64, its /56 at
 * IPV6_NETWORK_LIMIT_MULTIPLIER times; the upgrade past that is refused with HTTP 429), and one
 * socket at most LOCAL_CHAIN_MAX_SUBSCRIPTIONS_PER_SOCKET subscriptions (past that, a JSON-RPC
 * error; the socket stays open). The client is resolved as for HTTP: X-Forwarded-For only from
 * TRUSTED_PROXIES (the test process is the proxy here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startShop, stopShop, type RunningShop } from '../helpers/shop-server';

const MAX_SOCKETS = 3;
const MAX_SUBSCRIPTIONS = 5;
const MULTIPLIER = 2;

interface RpcAnswer {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
}

describe('the local chain websocket under one client', () => {
  let shop: RunningShop;
  const open: WebSocket[] = [];

  /** Opens a socket as `forwardedFor` (through the trusted proxy): the socket, or the refusal's status. */
  function connect(forwardedFor?: string): Promise<WebSocket | number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${shop.url.replace('http', 'ws')}/local-chain`, {
        headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      });
      ws.once('open', () => {
        open.push(ws);
        resolve(ws);
      });
      ws.once('unexpected-response', (request, response) => {
        ws.on('error', () => undefined);
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      ws.once('error', reject);
    });
  }

  async function close(ws: WebSocket): Promise<void> {
    if (ws.readyState === ws.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close();
    });
  }

  /** Sends one JSON-RPC call and waits for the answer with its id. */
  function ask(ws: WebSocket, id: number, method: string, params: unknown[] = []): Promise<RpcAnswer> {
    return new Promise((resolve) => {
      const onMessage = (data: Buffer) => {
        const answer = JSON.parse(data.toString('utf8')) as RpcAnswer;
        if (answer.id !== id) return;
        ws.off('message', onMessage);
        resolve(answer);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  beforeAll(async () => {
    shop = await startShop({
      watcher: false,
      env: {
        TRUSTED_PROXIES: '127.0.0.1',
        IPV6_NETWORK_LIMIT_MULTIPLIER: String(MULTIPLIER),
        LOCAL_CHAIN_MAX_SOCKETS_PER_CLIENT: String(MAX_SOCKETS),
        LOCAL_CHAIN_MAX_SUBSCRIPTIONS_PER_SOCKET: String(MAX_SUBSCRIPTIONS),
      },
    });
  });

  afterAll(async () => {
    await Promise.all(open.map(close));
    if (shop) await stopShop(shop);
  });

  it('refuses the socket past the per-client limit with 429; other clients still connect', async () => {
    const sockets: Array<WebSocket | number> = [];
    for (let i = 0; i < MAX_SOCKETS; i++) sockets.push(await connect('203.0.113.10'));
    expect(sockets.every((s) => s instanceof WebSocket)).toBe(true);
    expect(await connect('203.0.113.10')).toBe(429);
    // A header the proxy did not write is not read: the trusted proxy's hop is the client.
    expect(await connect('203.0.113.11, 203.0.113.10')).toBe(429);

    // Another client, and the proxy's own peer address, are counted apart.
    expect(await connect('198.51.100.20')).toBeInstanceOf(WebSocket);
    expect(await connect()).toBeInstanceOf(WebSocket);

    // A socket closed gives its place back.
    await close(sockets[0] as WebSocket);
    await expect
      .poll(async () => {
        const again = await connect('203.0.113.10');
        return again instanceof WebSocket;
      })
      .toBe(true);
  });

  it('counts an IPv6 client by its /64 and its /56 at the network multiplier', async () => {
    // Every address of one /64 is one client.
    for (let i = 1; i <= MAX_SOCKETS; i++) {
      expect(await connect(`2001:db8:aa:100::${i}`)).toBeInstanceOf(WebSocket);
    }
    expect(await connect('2001:db8:aa:100:ffff:1:2:3')).toBe(429);
    // A second /64 of the same /56 fills the network's share (MULTIPLIER x MAX_SOCKETS)...
    for (let i = 1; i <= MAX_SOCKETS * (MULTIPLIER - 1); i++) {
      expect(await connect(`2001:db8:aa:101::${i}`)).toBeInstanceOf(WebSocket);
    }
    // ...so a third /64 there is refused, while another /56 connects.
    expect(await connect('2001:db8:aa:102::1')).toBe(429);
    expect(await connect('2001:db8:bb:100::1')).toBeInstanceOf(WebSocket);
  });

  it('answers a JSON-RPC error for the subscription past the per-socket limit and keeps the socket', async () => {
    const ws = await connect('192.0.2.30');
    expect(ws).toBeInstanceOf(WebSocket);
    const socket = ws as WebSocket;
    const ids: number[] = [];
    for (let i = 1; i <= MAX_SUBSCRIPTIONS; i++) {
      const answer = await ask(
        socket,
        i,
        i % 2 ? 'slotSubscribe' : 'signatureSubscribe',
        i % 2 ? [] : [`sig${i}`],
      );
      expect(answer.error).toBeUndefined();
      ids.push(answer.result as number);
    }
    const refused = await ask(socket, 100, 'slotSubscribe');
    expect(refused.result).toBeUndefined();
    expect(refused.error).toMatchObject({ code: expect.any(Number) as number });
    expect(refused.error!.message).toMatch(/subscriptions/i);
    const refusedSignature = await ask(socket, 101, 'signatureSubscribe', ['another']);
    expect(refusedSignature.error).toBeDefined();
    expect(socket.readyState).toBe(socket.OPEN);

    // One unsubscribed leaves room for one more.
    expect((await ask(socket, 102, 'slotUnsubscribe', [ids[0]])).result).toBe(true);
    const again = await ask(socket, 103, 'slotSubscribe');
    expect(again.error).toBeUndefined();
    expect(typeof again.result).toBe('number');
  });
});
