import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutConfigResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import {
  checkoutRequests,
  errorOf,
  insertProduct,
  line,
  quantityOf,
  SHIPPING,
  startCheckoutApp,
  type CheckoutApp,
} from './checkout-test-kit';

/**
 * Checkouts POST /api/checkout refuses, reserving nothing: products, sizes, colours and stock it
 * does not have, totals a card cannot charge, too many checkouts from one client, a weak password
 * for the account asked for, a cart or shipping details the spec's messages name, crypto on a
 * cluster the shop was not told its accounts on.
 */

describe.each(BACKENDS)('checkout on %s', (backend) => {
  let app: CheckoutApp;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    app = await startCheckoutApp(backend);
    ({ t, db } = app);
  });
  afterAll(() => app?.close());

  const { checkout, cardCheckout } = checkoutRequests(() => t);

  it('refuses an unknown product with 404 and changes nothing', async () => {
    const product = await insertProduct(db, { quantity: 2 });
    const payments = await db.selectFrom('payments').select('id').execute();
    const res = await cardCheckout([line(product.id), line('00000000-0000-4000-8000-000000000000')]);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({
      code: 'NOT_FOUND',
      message: 'A product in your cart is no longer available',
      fields: { 'items.1.productId': 'A product in your cart is no longer available' },
    });
    expect(await quantityOf(db, product.id)).toBe(2);
    expect(await db.selectFrom('payments').select('id').execute()).toHaveLength(payments.length);
  });

  it('refuses sizes and colours the product does not offer, and missing choices', async () => {
    const product = await insertProduct(db, { title: 'Define Jacket', sizes: ['S', 'M'], colors: ['Black'] });
    const size = await cardCheckout([line(product.id, 1, 'XL')]);
    expect(size.status).toBe(409);
    expect(await errorOf(size)).toMatchObject({
      code: 'CONFLICT',
      message: 'Size XL is not available for Define Jacket',
    });
    const color = await cardCheckout([line(product.id, 1, 'S', 'Pink')]);
    expect(color.status).toBe(409);
    expect(await errorOf(color)).toMatchObject({
      code: 'CONFLICT',
      message: 'Color Pink is not available for Define Jacket',
      fields: { 'items.0.color': 'Color Pink is not available for Define Jacket' },
    });
    const noSize = await cardCheckout([line(product.id, 1, null)]);
    expect(noSize.status).toBe(400);
    expect((await errorOf(noSize)).message).toBe('Please choose a size for Define Jacket');
    const badSize = await cardCheckout([line(product.id, 1, 'XXL')]);
    expect(badSize.status).toBe(400);
    expect(await quantityOf(db, product.id)).toBe(3);
  });

  it('refuses more than is in stock with 409 OUT_OF_STOCK, and more than 5 per line with 400', async () => {
    const product = await insertProduct(db, { title: 'Swiftly Tee', quantity: 1 });
    const res = await cardCheckout([line(product.id, 2)]);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({
      code: 'OUT_OF_STOCK',
      message: 'Only 1 left of Swiftly Tee',
      fields: { 'items.0.quantity': 'Only 1 left of Swiftly Tee' },
    });
    const six = await cardCheckout([line(product.id, 6)]);
    expect(six.status).toBe(400);
    expect((await errorOf(six)).code).toBe('VALIDATION_FAILED');

    expect((await cardCheckout([line(product.id, 1)])).status).toBe(201);
    const soldOut = await cardCheckout([line(product.id, 1)]);
    expect(soldOut.status).toBe(409);
    expect((await errorOf(soldOut)).message).toBe('Swiftly Tee is sold out');
    expect(await quantityOf(db, product.id)).toBe(0);
  });

  it('refuses a total over what a card payment can charge with 400, not 500, and reserves nothing', async () => {
    const pricey = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        insertProduct(db, { title: `Gold Legging ${n}`, priceCents: 100_000_000, quantity: 10 }),
      ),
    );
    const res = await cardCheckout(pricey.map((p) => line(p.id, 5)));
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields).toEqual({ items: error.message });
    for (const p of pricey) expect(await quantityOf(db, p.id)).toBe(10);
  });

  it('limits checkouts per client IP (each holds stock): 429 with Retry-After, nothing reserved', async () => {
    const product = await insertProduct(db, { quantity: 50 });
    const ip = backend === 'pglite' ? '203.0.113.7' : '203.0.113.8';
    /** A checkout as if it came over a socket from `ip` (app.request has no socket otherwise). */
    const checkoutFrom = (from: string) =>
      t.app.request(
        '/api/checkout',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
          body: JSON.stringify({ items: [line(product.id)], shippingInfo: SHIPPING, paymentMethod: 'card' }),
        },
        { incoming: { socket: { remoteAddress: from } } },
      );
    for (let n = 0; n < 20; n++) expect((await checkoutFrom(ip)).status).toBe(201);
    expect(await quantityOf(db, product.id)).toBe(30);

    const limited = await checkoutFrom(ip);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await errorOf(limited)).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many checkout attempts. Please wait a few minutes and try again.',
    });
    expect(await quantityOf(db, product.id)).toBe(30);

    // Another shopper is not affected; a loopback client is counted like any other (a proxy on the
    // shop's machine is named in TRUSTED_PROXIES, see client-address.test.ts).
    expect((await checkoutFrom('198.51.100.20')).status).toBe(201);
    for (let n = 0; n < 20; n++) expect((await checkoutFrom('127.0.0.1')).status).toBe(201);
    expect((await checkoutFrom('127.0.0.1')).status).toBe(429);
    expect(await quantityOf(db, product.id)).toBe(9);
  });

  it('refuses a common or blank password for the account asked for at checkout, reserving nothing', async () => {
    const product = await insertProduct(db, { quantity: 1 });
    for (const password of ['password', '12345678', '        ']) {
      const res = await cardCheckout([line(product.id)], {
        createAccount: { password, confirmPassword: password },
      });
      expect(res.status, password).toBe(400);
      const error = await errorOf(res);
      expect(error.fields?.['createAccount.password']).toMatch(
        /^(This password is too common\. Choose another\.|Password cannot be only spaces)$/,
      );
    }
    expect(await quantityOf(db, product.id)).toBe(1);
  });

  it('validates the cart and the shipping info with the spec messages', async () => {
    const empty = await checkout({ items: [], shippingInfo: SHIPPING, paymentMethod: 'card' });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).fields).toEqual({ items: 'Your cart is empty' });
    const product = await insertProduct(db);
    const missing = await checkout({
      items: [line(product.id)],
      shippingInfo: { ...SHIPPING, city: '', zipCode: ' ' },
      paymentMethod: 'card',
    });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).fields).toEqual({
      'shippingInfo.city': 'Please fill in all required fields: City, ZIP Code',
      'shippingInfo.zipCode': 'Please fill in all required fields: City, ZIP Code',
    });
    const phone = await checkout({
      items: [line(product.id)],
      shippingInfo: { ...SHIPPING, phone: '123' },
      paymentMethod: 'card',
    });
    expect((await errorOf(phone)).fields).toEqual({
      'shippingInfo.phone': 'Please enter a valid phone number (10 digits)',
    });
    const mismatch = await cardCheckout([line(product.id)], {
      createAccount: { password: 'long enough', confirmPassword: 'different' },
    });
    expect(mismatch.status).toBe(400);
    expect((await errorOf(mismatch)).fields).toEqual({
      'createAccount.confirmPassword': 'Passwords do not match',
    });
    expect(await quantityOf(db, product.id)).toBe(3);
  });

  it('answers 503 for crypto methods on a cluster without TOKEN_MINT and SHOP_WALLET, without touching stock', async () => {
    const product = await insertProduct(db);
    // The same database, served by an instance pointed at a real cluster but not told its accounts.
    const remote = await startTestApp({
      backend: t.backend,
      database: t.deps.database,
      env: { SOLANA_RPC_URL: 'http://127.0.0.1:1/rpc' },
    });
    try {
      const config = (await (
        await remote.client().get('/api/checkout/config')
      ).json()) as CheckoutConfigResponse;
      expect(config.crypto).toEqual({ enabled: false });
      for (const paymentMethod of ['sol', 'aelo']) {
        const res = await remote.client().post('/api/checkout', {
          items: [line(product.id)],
          shippingInfo: SHIPPING,
          paymentMethod,
        });
        expect(res.status).toBe(503);
        expect(await errorOf(res)).toEqual({
          code: 'NOT_CONFIGURED',
          message: 'Crypto payments are not configured yet',
        });
      }
    } finally {
      await remote.close();
    }
    expect(await quantityOf(db, product.id)).toBe(3);
  });
});
