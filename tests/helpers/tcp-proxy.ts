import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * How the proxy fails while it is cut:
 * - `refuse`: every open connection is destroyed and new ones are refused (ECONNREFUSED), as a
 *   stopped PostgreSQL server on a reachable host;
 * - `silent`: a network partition: open connections stay open but nothing passes either way (the
 *   bytes wait, as TCP retransmits them), and new connections are accepted but never answered.
 */
export type CutMode = 'refuse' | 'silent';

/**
 * A TCP proxy in front of a real server (node:net), to take it away from a client without stopping
 * it: tests point DATABASE_URL at `127.0.0.1:<port>` and cut and restore the way in.
 */
export interface TcpProxy {
  readonly port: number;
  /** The upstream URL with its host and port replaced by the proxy's. */
  url(upstream: string): string;
  cut(mode: CutMode): Promise<void>;
  restore(): Promise<void>;
  /** Connections made through the proxy since it started. */
  readonly connectionsMade: number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  server: Socket | undefined;
  /** Bytes held while the proxy is silent, per direction. */
  held: { toServer: Buffer[]; toClient: Buffer[] };
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: CutMode | undefined;
  let port = 0;
  let connectionsMade = 0;
  const pairs = new Set<Pair>();
  /** Connections accepted while silent: never answered, destroyed on restore. */
  const stranded = new Set<Socket>();

  const destroy = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.server?.destroy();
  };

  const pipe = (pair: Pair) => {
    const { client } = pair;
    const server = net.connect(target.port, target.host);
    pair.server = server;
    client.on('data', (chunk: Buffer) => {
      if (mode === 'silent') pair.held.toServer.push(chunk);
      else server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      if (mode === 'silent') pair.held.toClient.push(chunk);
      else client.write(chunk);
    });
    for (const socket of [client, server]) {
      socket.on('error', () => destroy(pair));
      socket.on('close', () => destroy(pair));
    }
  };

  const onConnection = (client: Socket) => {
    if (mode === 'silent') {
      stranded.add(client);
      client.on('error', () => undefined);
      client.on('close', () => stranded.delete(client));
      return;
    }
    connectionsMade++;
    const pair: Pair = { client, server: undefined, held: { toServer: [], toClient: [] } };
    pairs.add(pair);
    pipe(pair);
  };

  let listener = net.createServer(onConnection);
  const listen = (on: net.Server, at: number) =>
    new Promise<number>((resolve, reject) => {
      on.once('error', reject);
      on.listen(at, '127.0.0.1', () => resolve((on.address() as AddressInfo).port));
    });
  const stopListening = (on: net.Server) => new Promise<void>((resolve) => on.close(() => resolve()));

  port = await listen(listener, 0);

  return {
    get port() {
      return port;
    },
    get connectionsMade() {
      return connectionsMade;
    },
    url(upstream) {
      const url = new URL(upstream);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async cut(cutMode) {
      if (mode) throw new Error('the proxy is already cut');
      mode = cutMode;
      if (cutMode === 'refuse') {
        // Nothing listens on the port any more: a connection attempt is refused at once.
        const closed = stopListening(listener);
        for (const pair of [...pairs]) destroy(pair);
        await closed;
      }
    },
    async restore() {
      const was = mode;
      mode = undefined;
      if (was === 'refuse') {
        listener = net.createServer(onConnection);
        await listen(listener, port);
      } else {
        for (const socket of [...stranded]) socket.destroy();
        for (const pair of pairs) {
          for (const chunk of pair.held.toServer.splice(0)) pair.server?.write(chunk);
          for (const chunk of pair.held.toClient.splice(0)) pair.client.write(chunk);
        }
      }
    },
    async close() {
      mode = undefined;
      for (const pair of [...pairs]) destroy(pair);
      for (const socket of [...stranded]) socket.destroy();
      if (listener.listening) await stopListening(listener);
    },
  };
}
