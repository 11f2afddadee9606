import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/client';
import { createProduct } from '../factories/product';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';

/**
 * The client address behind the checkout and sign-up limits: X-Forwarded-For counts only when it
 * comes from a configured proxy (TRUSTED_PROXIES), read from the right, and a forwarded value never
 * makes a client loopback (loopback clients are counted like any other).
 */

const SHIPPING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '(555) 123-4567',
  address: '1 Analytical Way',
  city: 'London',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

let n = 0;
const rotating = () => `198.51.100.${++n % 250}`;

describe.each(BACKENDS)('client address on %s', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let proxied: TestApp;
  let db: Db;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    const env = {
      ...stripeEnv(fake),
      CHECKOUT_RATE_LIMIT: '2',
      SIGN_UP_RATE_LIMIT: '2',
    };
    t = await startTestApp({ backend, env });
    proxied = await startTestApp({ backend, env: { ...env, TRUSTED_PROXIES: '10.0.0.0/8' } });
    db = t.deps.database.db;
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
    await fake?.close();
  });

  async function checkout(client: TestClient, productId: string, forwardedFor?: string) {
    return client.post(
      '/api/checkout',
      { items: [{ productId, size: 'M', quantity: 1 }], shippingInfo: SHIPPING, paymentMethod: 'card' },
      forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {},
    );
  }

  async function signUp(client: TestClient, forwardedFor: string) {
    return client.post(
      '/api/auth/sign-up/email',
      { email: `user-${++n}@example.com`, password: 'a long pass phrase 42' },
      { headers: { 'x-forwarded-for': forwardedFor } },
    );
  }

  it('ignores X-Forwarded-For without trusted proxies: rotating it does not escape the checkout limit', async () => {
    const product = await createProduct(db, { quantity: 50, sizes: ['M'], colors: [] });
    for (const ip of ['203.0.113.5', '127.0.0.1', '::1']) {
      const client = t.client({ ip });
      const first = await checkout(client, product.id, rotating());
      expect(first.status, await first.clone().text()).toBe(201);
      expect((await checkout(client, product.id, `${rotating()}, 127.0.0.1`)).status, ip).toBe(201);
      const third = await checkout(client, product.id, rotating());
      expect(third.status, ip).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  });

  it('ignores X-Forwarded-For without trusted proxies: rotating it does not escape the sign-up limit', async () => {
    for (const ip of ['203.0.113.6', '127.0.0.1']) {
      const results: number[] = [];
      for (let i = 0; i < 3; i++)
        results.push(
          (await signUp(t.client({ ip }), i % 2 === 0 ? rotating() : `${rotating()}, 127.0.0.1`)).status,
        );
      expect(results, ip).toEqual([200, 200, 429]);
    }
  });

  it('behind a trusted proxy, tells clients apart by the hop the proxy appended', async () => {
    const product = await createProduct(proxied.deps.database.db, { quantity: 50, sizes: ['M'], colors: [] });
    const proxy = () => proxied.client({ ip: '10.0.0.2' });
    // Two shoppers behind one load balancer: each has a limit of their own.
    for (const shopper of ['203.0.113.20', '203.0.113.21']) {
      expect((await checkout(proxy(), product.id, shopper)).status).toBe(201);
      expect((await checkout(proxy(), product.id, `10.1.2.3, ${shopper}`)).status).toBe(201);
    }
    // A shopper who writes addresses of their own to the left of the hop the proxy appended.
    const spoofed = await checkout(proxy(), product.id, `${rotating()}, 203.0.113.20`);
    expect(spoofed.status).toBe(429);
    // A forwarded loopback value does not make the client local: it counts as the proxy itself.
    expect((await checkout(proxy(), product.id, '127.0.0.1')).status).toBe(201);
    expect((await checkout(proxy(), product.id, '::1')).status).toBe(201);
    expect((await checkout(proxy(), product.id, '127.0.0.1')).status).toBe(429);
    // A peer that is not a configured proxy is the client, whatever it forwards.
    const direct = proxied.client({ ip: '192.168.7.7' });
    expect((await checkout(direct, product.id, rotating())).status).toBe(201);
    expect((await checkout(direct, product.id, rotating())).status).toBe(201);
    expect((await checkout(direct, product.id, rotating())).status).toBe(429);
  });
});
