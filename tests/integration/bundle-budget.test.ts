/**
 * Performance budget (issue 3): the landing route's first load ships at most 150 KB of gzipped
 * JavaScript. Measured on the built app by bench/bundle-size.ts (entry script, its modulepreloads,
 * the landing route chunk and their static imports); admin, account, checkout, charts, Solana,
 * Stripe and QR code code must stay behind dynamic imports.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUDGET_BYTES, measureLandingBundle } from '../../bench/bundle-size';

const DIST = path.resolve(import.meta.dirname, '../../dist/web');
const isBuilt = existsSync(path.join(DIST, 'index.html'));

if (!isBuilt) console.warn('SKIPPED: bundle budget (the web app is not built: run `npm run build:web`)');

describe.skipIf(!isBuilt)('landing route bundle budget', () => {
  it('ships at most 150 KB of gzipped JavaScript on first load', () => {
    const report = measureLandingBundle(DIST);
    const table = report.files
      .map((f) => `${(f.gzipBytes / 1024).toFixed(1)} KB  ${f.file} (${f.reason})`)
      .join('\n');
    expect(report.files.some((f) => f.reason === 'entry')).toBe(true);
    expect(report.files.some((f) => f.reason === 'landing route')).toBe(true);
    expect(
      report.totalGzipBytes,
      `first load is ${(report.totalGzipBytes / 1024).toFixed(1)} KB gzipped:\n${table}`,
    ).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('keeps heavy areas out of the first load', () => {
    // Chunk names without their content hash (a hash such as 'D3rQRkqJ' must not match /qr/i).
    const names = measureLandingBundle(DIST).files.map((f) =>
      path.basename(f.file).replace(/-[\w-]{8}\.js$/, ''),
    );
    for (const lazy of [
      /^admin/,
      /^dashboard/,
      /^analytics/,
      /^account-layout/,
      /^cart-drawer-panel/,
      /stripe/i,
      /qr/i,
      /web3/i,
    ]) {
      expect(
        names.filter((n) => lazy.test(n)),
        `${lazy} is part of the first load`,
      ).toEqual([]);
    }
  });
});
