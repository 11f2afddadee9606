import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  chooseEncoding,
  etagOf,
  matchesIfNoneMatch,
  prepareJson,
  PreparedCache,
  type PreparedBody,
} from './prepared-body';

const big = { items: Array.from({ length: 50 }, (_, i) => ({ id: i, title: `Product ${i}` })) };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('prepared bodies', () => {
  it('serialises once, tags the bytes, and compresses each encoding once to the same bytes', async () => {
    const body = prepareJson(big);
    expect(Buffer.from(body.bytes).toString('utf8')).toBe(JSON.stringify(big));
    expect(body.hash).toBe(prepareJson(JSON.parse(JSON.stringify(big)) as unknown).hash);
    expect(body.hash).not.toBe(prepareJson({ ...big, more: true }).hash);
    const br = await body.encoded('br');
    expect(await body.encoded('br')).toBe(br);
    expect(brotliDecompressSync(br).equals(Buffer.from(body.bytes))).toBe(true);
    expect(gunzipSync(await body.encoded('gzip')).equals(Buffer.from(body.bytes))).toBe(true);
    expect(etagOf(body, 'identity')).toBe(`"${body.hash}"`);
    expect(etagOf(body, 'br')).toBe(`"${body.hash}-br"`);
  });

  it('matches If-None-Match on any representation of the same bytes, weak or strong, and on *', () => {
    const body = prepareJson(big);
    const other = prepareJson({ other: 1 });
    expect(matchesIfNoneMatch(undefined, body)).toBe(false);
    expect(matchesIfNoneMatch(etagOf(body, 'identity'), body)).toBe(true);
    expect(matchesIfNoneMatch(`W/${etagOf(body, 'gzip')}`, body)).toBe(true);
    expect(matchesIfNoneMatch(`${etagOf(other, 'identity')}, ${etagOf(body, 'br')}`, body)).toBe(true);
    expect(matchesIfNoneMatch('*', body)).toBe(true);
    expect(matchesIfNoneMatch(etagOf(other, 'identity'), body)).toBe(false);
    expect(matchesIfNoneMatch(`"${body.hash}-deflate"`, body)).toBe(false);
    expect(matchesIfNoneMatch(`"${body.hash}x"`, body)).toBe(false);
  });

  it('chooses brotli, then gzip, then none, as the client accepts (small bodies stay plain)', () => {
    expect(chooseEncoding(undefined, 5000)).toBe('identity');
    expect(chooseEncoding('gzip, deflate, br, zstd', 5000)).toBe('br');
    expect(chooseEncoding('gzip, deflate', 5000)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5', 5000)).toBe('gzip');
    expect(chooseEncoding('*', 5000)).toBe('br');
    expect(chooseEncoding('*, br;q=0', 5000)).toBe('gzip');
    expect(chooseEncoding('identity', 5000)).toBe('identity');
    expect(chooseEncoding('gzip, br', 100)).toBe('identity');
  });
});

describe('PreparedCache', () => {
  it('shares one load among concurrent callers and keeps the least recently used out first', async () => {
    const cache = new PreparedCache(2, 60_000);
    let loads = 0;
    const load = (value: string) => async () => {
      loads++;
      return prepareJson(value);
    };
    const [a1, a2] = await Promise.all([cache.get('a', load('a')), cache.get('a', load('a'))]);
    expect(a1).toBe(a2);
    expect(loads).toBe(1);
    await cache.get('b', load('b'));
    await cache.get('a', load('a')); // a is now the most recent
    await cache.get('c', load('c')); // b leaves
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.size).toBe(2);
    for (let i = 0; i < 100; i++) await cache.get(`crawl-${i}`, load(`x${i}`));
    expect(cache.size).toBe(2);
  });

  it('never keeps a load that was running when the cache was invalidated, nor a failed one', async () => {
    const cache = new PreparedCache(10, 60_000);
    const slow = deferred<PreparedBody>();
    const before = cache.get('k', () => slow.promise);
    cache.invalidate();
    slow.resolve(prepareJson('old'));
    await before;
    expect(cache.has('k')).toBe(false);
    const fresh = await cache.get('k', async () => prepareJson('new'));
    expect(Buffer.from(fresh.bytes).toString()).toBe('"new"');

    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.has('bad')).toBe(false);
  });

  it('rebuilds an entry past its age in the background, serving the old bytes until then', async () => {
    let now = 0;
    const cache = new PreparedCache(10, 1_000, () => now);
    const first = await cache.get('k', async () => prepareJson('v1'));
    now = 500;
    expect(await cache.get('k', async () => prepareJson('never'))).toBe(first);
    now = 1_500;
    const next = deferred<PreparedBody>();
    // Past its age: still the old body, while the new one loads.
    expect(await cache.get('k', () => next.promise)).toBe(first);
    next.resolve(prepareJson('v2'));
    await new Promise((r) => setTimeout(r, 0));
    const second = await cache.get('k', async () => prepareJson('never'));
    expect(Buffer.from(second.bytes).toString()).toBe('"v2"');
    // Equal bytes keep the body already made (its compressed forms with it).
    now = 3_000;
    await cache.get('k', async () => prepareJson('v2'));
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get('k', async () => prepareJson('never'))).toBe(second);
  });
});
