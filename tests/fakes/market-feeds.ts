import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the two outside price feeds, speaking their wire formats:
 * - DEX token pairs: GET /latest/dex/tokens/{mint} -> { schemaVersion, pairs: [{ priceUsd, priceChange: { h24 }, volume: { h24 }, fdv, ... }] }
 * - simple price:    GET /api/v3/simple/price?ids=solana&vs_currencies=usd -> { solana: { usd } }
 * Tests steer it through `behaviour` and read `hits`.
 */
export interface FakeMarketFeeds {
  dexUrl: string;
  priceUrl: string;
  hits: { dex: number; price: number };
  behaviour: {
    mode: 'ok' | 'http-500' | 'garbage' | 'no-pairs' | 'slow';
    slowMs: number;
    priceUsd: string;
    change: number;
    volume: number;
    fdv: number;
    solUsd: number;
  };
  close(): Promise<void>;
}

export async function startFakeMarketFeeds(): Promise<FakeMarketFeeds> {
  const state: FakeMarketFeeds['behaviour'] = {
    mode: 'ok',
    slowMs: 2000,
    priceUsd: '0.001234',
    change: -4.5,
    volume: 2_345_678,
    fdv: 1_500_000,
    solUsd: 187.42,
  };
  const hits = { dex: 0, price: 0 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    const respond = (body: unknown) => {
      if (state.mode === 'http-500') return send(500, '{"error":"upstream"}');
      if (state.mode === 'garbage') return send(200, '<html>not json');
      if (state.mode === 'slow') {
        setTimeout(() => send(200, JSON.stringify(body)), state.slowMs);
        return;
      }
      send(200, JSON.stringify(body));
    };
    if (url.pathname.startsWith('/latest/dex/tokens/')) {
      hits.dex++;
      if (state.mode === 'no-pairs')
        return send(200, JSON.stringify({ schemaVersion: '1.0.0', pairs: null }));
      return respond({
        schemaVersion: '1.0.0',
        pairs: [
          {
            chainId: 'solana',
            dexId: 'raydium',
            pairAddress: 'FakePair111111111111111111111111111111111111',
            baseToken: { address: url.pathname.split('/').pop(), name: 'Aelo', symbol: 'AELO' },
            quoteToken: {
              address: 'So11111111111111111111111111111111111111112',
              name: 'Wrapped SOL',
              symbol: 'SOL',
            },
            priceNative: '0.0000066',
            priceUsd: state.priceUsd,
            txns: { h24: { buys: 120, sells: 80 } },
            volume: { h24: state.volume, h6: 1000, h1: 100, m5: 10 },
            priceChange: { h24: state.change, h6: 1, h1: 0.5, m5: 0 },
            liquidity: { usd: 50_000, base: 1, quote: 1 },
            fdv: state.fdv,
            marketCap: state.fdv,
          },
        ],
      });
    }
    if (url.pathname === '/api/v3/simple/price') {
      hits.price++;
      if (url.searchParams.get('ids') !== 'solana' || url.searchParams.get('vs_currencies') !== 'usd') {
        return send(400, '{"error":"bad params"}');
      }
      return respond({ solana: { usd: state.solUsd } });
    }
    send(404, '{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dexUrl: `http://127.0.0.1:${port}/latest/dex/tokens`,
    priceUrl: `http://127.0.0.1:${port}/api/v3`,
    hits,
    behaviour: state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
