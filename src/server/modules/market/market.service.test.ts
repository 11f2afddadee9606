import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMarketFeeds, type FakeMarketFeeds } from '../../../../tests/fakes/market-feeds';
import { LOCAL_MARKET } from '#common/schemas/market';
import { loadConfig } from '#server/config';
import { AppError } from '#server/lib/app-error';
import { createLogger } from '#server/lib/logger';
import { createMarketService } from './market.service';

const logger = createLogger('silent');
const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-market-'));

describe('market service against the live feeds (fake speaking their wire format)', () => {
  let feeds: FakeMarketFeeds;
  let clock = 1_000_000;

  beforeAll(async () => {
    feeds = await startFakeMarketFeeds();
  });
  afterAll(async () => {
    await feeds.close();
  });
  beforeEach(() => {
    feeds.behaviour.mode = 'ok';
    feeds.hits.dex = 0;
    feeds.hits.price = 0;
  });

  const service = (timeoutMs = 1000) =>
    createMarketService({
      config: loadConfig({
        DATA_DIR: dataDir,
        SOLANA_RPC_URL: 'http://127.0.0.1:1/rpc',
        TOKEN_MINT: 'So11111111111111111111111111111111111111112',
        MARKET_DEX_URL: feeds.dexUrl,
        MARKET_PRICE_URL: feeds.priceUrl,
        MARKET_TIMEOUT_MS: String(timeoutMs),
      }),
      logger,
      now: () => clock,
    });

  it('serves pairs[0] in the spec shape and caches it for 60 s', async () => {
    const market = service();
    const stats = await market.tokenStats();
    expect(stats).toMatchObject({
      pairs: [
        { priceUsd: '0.001234', priceChange: { h24: -4.5 }, volume: { h24: 2_345_678 }, fdv: 1_500_000 },
      ],
      source: 'live',
    });
    await market.tokenStats();
    clock += 59_000;
    await market.tokenStats();
    expect(feeds.hits.dex).toBe(1);
    clock += 2_000;
    await market.tokenStats();
    expect(feeds.hits.dex).toBe(2);
  });

  it('fetches the SOL price once for concurrent callers', async () => {
    const market = service();
    const results = await Promise.all([market.solPrice(), market.solPrice(), market.solPrice()]);
    expect(results.map((r) => r.solana.usd)).toEqual([187.42, 187.42, 187.42]);
    expect(feeds.hits.price).toBe(1);
  });

  it('reports upstream failures with the spec texts', async () => {
    feeds.behaviour.mode = 'http-500';
    await expect(service().tokenStats()).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'HTTP error! status: 500',
    });
    feeds.behaviour.mode = 'garbage';
    await expect(service().tokenStats()).rejects.toMatchObject({ message: 'Invalid response format' });
    feeds.behaviour.mode = 'no-pairs';
    await expect(service().tokenStats()).rejects.toMatchObject({ message: 'Invalid response format' });
  });

  it('uses the feed URLs from the admin settings over the configuration, at once', async () => {
    const stored: Record<string, string | undefined> = {};
    const market = createMarketService({
      config: loadConfig({
        DATA_DIR: dataDir,
        SOLANA_RPC_URL: 'http://127.0.0.1:1/rpc',
        TOKEN_MINT: 'So11111111111111111111111111111111111111112',
        MARKET_DEX_URL: 'http://127.0.0.1:1/unreachable',
        MARKET_PRICE_URL: 'http://127.0.0.1:1/unreachable',
        MARKET_TIMEOUT_MS: '500',
      }),
      logger,
      now: () => clock,
      settings: { getSecret: (provider, keyName) => Promise.resolve(stored[`${provider}/${keyName}`]) },
    });
    await expect(market.solPrice()).rejects.toMatchObject({ message: 'Failed to fetch SOL price' });
    stored['market/price_url'] = `${feeds.priceUrl}/`;
    stored['market/dex_url'] = feeds.dexUrl;
    expect((await market.solPrice()).solana.usd).toBe(187.42);
    expect((await market.tokenStats()).pairs[0]?.priceUsd).toBe('0.001234');
    expect(feeds.hits).toMatchObject({ price: 1, dex: 1 });
  });

  it('gives up after the timeout', async () => {
    feeds.behaviour.mode = 'slow';
    feeds.behaviour.slowMs = 1500;
    const started = Date.now();
    const err = await service(200)
      .solPrice()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('Failed to fetch SOL price');
    expect(Date.now() - started).toBeLessThan(1400);
  });
});

describe('market service with the local ledger', () => {
  it('answers with the fixed local prices, labelled local, without any network', async () => {
    const market = createMarketService({
      config: loadConfig({ DATA_DIR: dataDir }),
      logger,
      fetch: () => Promise.reject(new Error('no network in local mode')),
    });
    const stats = await market.tokenStats();
    expect(stats.source).toBe('local');
    expect(stats.pairs[0]?.priceUsd).toBe(LOCAL_MARKET.token.priceUsd);
    expect(stats.pairs[0]?.fdv).toBe(LOCAL_MARKET.token.fdv);
    expect(await market.solPrice()).toMatchObject({ solana: { usd: LOCAL_MARKET.solUsd }, source: 'local' });
  });
});
