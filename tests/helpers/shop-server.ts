import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Server } from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import { Connection } from '@solana/web3.js';
import { expect, vi } from 'vitest';
import { startPaymentWatcher } from '#server/jobs/payment-watcher';
import type { RunningJob } from '#server/jobs/periodic';
import { attachLocalChainSockets } from '#server/local-ledger/local-chain-sockets';
import { startTestApp, type StartTestAppOptions, type TestApp } from './test-app';

/**
 * The shop on a real port (web3.js and wallets speak HTTP and websockets to /local-chain), with
 * the local ledger's websocket attached and, unless told otherwise, the payment watcher running.
 */
export interface RunningShop {
  t: TestApp;
  server: ServerType;
  url: string;
  watcher: RunningJob | undefined;
  detach: () => void;
  /** Websockets clients have open to the server (web3.js subscriptions). */
  sockets: Set<Duplex>;
}

export async function startShop(
  options: Partial<StartTestAppOptions> & { watcher?: boolean } = {},
): Promise<RunningShop> {
  const t = await startTestApp({ backend: 'pglite', ...options });
  const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<Duplex>();
  server.on('upgrade', (_request, socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const detach = t.deps.localChain
    ? attachLocalChainSockets(server as Server, t.deps.localChain, t.deps.config)
    : () => undefined;
  const watcher = options.watcher === false ? undefined : startPaymentWatcher(t.deps);
  return { t, server, url: `http://127.0.0.1:${port}`, watcher, detach, sockets };
}

/** web3.js finds the RPC websocket on the same path only when told (it guesses the next port). */
export function connect(running: { url: string }): Connection {
  return new Connection(`${running.url}/local-chain`, {
    commitment: 'confirmed',
    wsEndpoint: `${running.url.replace('http', 'ws')}/local-chain`,
  });
}

/**
 * Waits (up to 2 s, then goes on) until clients have closed their websockets to the shop: web3.js
 * closes one 500 ms after its last subscription, and a server stopped before that makes it
 * reconnect to a closed port (and log about it).
 */
export async function websocketsClosed(running: RunningShop): Promise<void> {
  await vi
    .waitFor(() => expect(running.sockets.size, 'websockets open').toBe(0), { timeout: 2_000, interval: 50 })
    .catch(() => undefined);
}

export async function stopShop(running: RunningShop): Promise<void> {
  await websocketsClosed(running);
  await running.watcher?.stop();
  running.detach();
  await new Promise<void>((resolve) => running.server.close(() => resolve()));
  await running.t.close();
}
