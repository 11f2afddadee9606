import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../factories/product';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** SHOP_NAME names the shop on its pages, server-rendered: titles, the wordmark, the footer. */
describe('a shop with its own name (SHOP_NAME)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend: 'pglite', env: { SHOP_NAME: 'North & Track' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is in the page titles, the header and the footer, and the shipped name is not', async () => {
    const home = await (await t.app.request('/')).text();
    expect(home).toContain('<title>North &amp; Track — ');
    expect(home).toContain(`© ${new Date().getFullYear()} North &amp; Track. All rights reserved.`);
    const { id } = await createProduct(t.deps.database.db, { title: 'Trail Tee', brand: 'Loom' });
    const product = await (await t.app.request(`/products/${id}`)).text();
    expect(product).toContain('<title>Trail Tee — Loom | North &amp; Track</title>');
    const login = await (await t.app.request('/login')).text();
    expect(login).toContain('<title>Sign in · North &amp; Track</title>');
    for (const html of [home, product, login]) expect(html).not.toMatch(/>Aelo</);
  });

  it('labels its Solana Pay transaction requests', async () => {
    const res = await t.app.request('/api/solana-pay/payments/11111111111111111111111111111111');
    expect(await res.json()).toMatchObject({ label: 'North & Track' });
  });
});
