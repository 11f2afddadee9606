import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PreparedPage } from './prepared-page';

const PLACEHOLDER = 'token-0123456789abcdef0123456789abcdef';

async function forms(page: PreparedPage, token: string) {
  await page.prepared();
  return { br: page.encoded('br', token)!, gzip: page.encoded('gzip', token)! };
}

describe('PreparedPage', () => {
  const documents: Record<string, string> = {
    'a token near the end, twice': `<!doctype html><p>${'Leggings — 49,99 € '.repeat(4000)}</p><script nonce="${PLACEHOLDER}">1</script><style nonce="${PLACEHOLDER}"></style></html>`,
    'no token': `<p>${'x'.repeat(5000)}</p>`,
    'a token first': `${PLACEHOLDER}<p>ü</p>`,
    'tokens early and between long parts': `<head><link nonce="${PLACEHOLDER}">${'<meta name="a" content="b">'.repeat(3000)}<script nonce="${PLACEHOLDER}">x</script>${'<p>Sculpt legging</p>'.repeat(4000)}${PLACEHOLDER}`,
    'more than 64 KiB after the token': `<p>a</p>${PLACEHOLDER}${randomBytes(100_000).toString('base64')}${PLACEHOLDER}`,
    empty: '',
  };

  it.each(Object.entries(documents))('serves %s with each token, in every encoding', async (_name, html) => {
    const page = new PreparedPage(html, PLACEHOLDER);
    // Not made yet: the first response goes without waiting for it.
    expect(page.encoded('br', 'n')).toBeUndefined();
    for (const token of ['nonce-one', 'a+other/nonce==']) {
      const expected = html.replaceAll(PLACEHOLDER, token);
      expect(new TextDecoder().decode(page.bytes(token))).toBe(expected);
      const { br, gzip } = await forms(page, token);
      expect(brotliDecompressSync(br).toString('utf8')).toBe(expected);
      expect(gunzipSync(gzip).toString('utf8')).toBe(expected);
    }
    expect(page.size).toBe(new TextEncoder().encode(html).length);
  });

  it('keeps the compressed part small when the token comes late', async () => {
    const html = documents['a token near the end, twice']!;
    const page = new PreparedPage(html, PLACEHOLDER);
    const { br, gzip } = await forms(page, 'n');
    expect(br.length).toBeLessThan(page.size / 20);
    expect(gzip.length).toBeLessThan(page.size / 20);
  });

  it('compresses the whole document as gzip wherever the tokens are, and prefers gzip to a brotli form sent mostly uncompressed', async () => {
    const html = documents['tokens early and between long parts']!;
    const page = new PreparedPage(html, PLACEHOLDER);
    const { gzip } = await forms(page, 'a-nonce-of-24-characters');
    expect(gzip.length).toBeLessThan(page.size / 20);
    expect(page.encodingFor('gzip, deflate, br, zstd')).toBe('gzip');
    expect(page.encodingFor('br')).toBe('br');
    expect(page.encodingFor(undefined)).toBe('identity');
    const late = new PreparedPage(documents['a token near the end, twice']!, PLACEHOLDER);
    expect(late.encodingFor('gzip, deflate, br, zstd')).toBe('br');
  });

  it('has the same hash for the same document', () => {
    expect(new PreparedPage('<p>a</p>', PLACEHOLDER).hash).toBe(
      new PreparedPage('<p>a</p>', PLACEHOLDER).hash,
    );
    expect(new PreparedPage('<p>a</p>', PLACEHOLDER).hash).not.toBe(
      new PreparedPage('<p>b</p>', PLACEHOLDER).hash,
    );
  });
});
