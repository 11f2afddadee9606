import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Hono's SmartRouter keeps the fastest router that takes every route pattern: RegExpRouter (one
 * regular expression per method), else TrieRouter. RegExpRouter refuses a static segment and a
 * parameter at the same place (`/products/categories` beside `/products/:id`); one such pair puts
 * every request of the shop on the slower router (issue 15, benchmark 1).
 */
describe('router', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend: 'pglite' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('matches every route with RegExpRouter', async () => {
    expect((await t.app.request('/api/health')).status).toBe(200);
    const router = t.app.router as unknown as { activeRouter: { name: string } };
    expect(router.activeRouter.name).toBe('RegExpRouter');
  });
});
