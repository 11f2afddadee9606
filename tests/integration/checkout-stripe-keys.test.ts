import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutConfigResponse, CheckoutResponse } from '#common/schemas/checkout';
import type { Database, Db } from '#server/db/client';
import type { FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS, type ScratchDatabase } from '../helpers/databases';
import { takeServerErrors } from '../helpers/server-errors';
import { startTestApp, type TestApp } from '../helpers/test-app';
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
 * Card payments and the Stripe keys: without any, checkouts and webhooks answer 503; keys stored
 * (encrypted) in the admin settings win over the environment's.
 */

describe.each(BACKENDS)('checkout on %s', (backend) => {
  let app: CheckoutApp;
  let scratch: ScratchDatabase;
  let database: Database;
  let fake: FakeStripeServer;
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    app = await startCheckoutApp(backend);
    ({ scratch, database, fake, t, db } = app);
  });
  afterAll(() => app?.close());

  const { cardCheckout } = checkoutRequests(() => t);

  describe('keys', () => {
    let bare: TestApp;
    beforeAll(async () => {
      // Same database, no Stripe keys in the environment.
      bare = await startTestApp({ backend, scratch, database, env: { STRIPE_API_URL: fake.url } });
    });
    afterAll(async () => {
      await bare?.deps.settings.setSecret('stripe', 'secret_key', null);
      await bare?.deps.settings.setSecret('stripe', 'webhook_secret', null);
      await bare?.close();
    });

    it('without Stripe keys: 503 NOT_CONFIGURED and the config says card is disabled', async () => {
      const product = await insertProduct(db);
      const config = await bare.client().get('/api/checkout/config');
      expect(((await config.json()) as CheckoutConfigResponse).card).toEqual({ enabled: false });
      const res = await bare
        .client()
        .post('/api/checkout', { items: [line(product.id)], shippingInfo: SHIPPING, paymentMethod: 'card' });
      expect(res.status).toBe(503);
      expect(await errorOf(res)).toEqual({
        code: 'NOT_CONFIGURED',
        message: 'Card payments are not configured',
      });
      expect(await quantityOf(db, product.id)).toBe(3);
      // A signed event waits (503: Stripe retries) until a webhook secret is set; an unsigned one is refused.
      const hook = await bare
        .client()
        .post(
          '/api/webhooks/stripe',
          { type: 'checkout.session.completed' },
          { headers: { 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` } },
        );
      expect(hook.status).toBe(503);
      expect((await bare.client().post('/api/webhooks/stripe', { type: 'x' })).status).toBe(400);
    });

    it('uses keys stored (encrypted) in the admin settings, which win over the environment', async () => {
      await bare.deps.settings.setSecret('stripe', 'secret_key', fake.secretKey);
      await bare.deps.settings.setSecret('stripe', 'webhook_secret', fake.webhookSecret);
      const stored = await db
        .selectFrom('api_configurations')
        .select(['key_name', 'key_value_encrypted'])
        .where('provider', '=', 'stripe')
        .execute();
      expect(stored).toHaveLength(2);
      for (const row of stored) {
        expect(row.key_value_encrypted).toMatch(/^v1\./);
        expect(row.key_value_encrypted).not.toContain(fake.secretKey);
      }
      const config = await bare.client().get('/api/checkout/config');
      expect(((await config.json()) as CheckoutConfigResponse).card).toEqual({ enabled: true });
      const product = await insertProduct(db);
      const res = await bare
        .client()
        .post('/api/checkout', { items: [line(product.id)], shippingInfo: SHIPPING, paymentMethod: 'card' });
      expect(res.status).toBe(201);

      // The main app has another ENCRYPTION_KEY (its own DATA_DIR): it can not read those values
      // and keeps to its environment.
      const other = await insertProduct(db, { quantity: 1 });
      const viaEnv = await cardCheckout([line(other.id)]);
      expect(viaEnv.status).toBe(201);
      await t.client().post(`/api/payments/${((await viaEnv.json()) as CheckoutResponse).reference}/cancel`);
      expect(await quantityOf(db, other.id)).toBe(1);

      // A wrong key in its own settings beats the right one in its environment.
      await t.deps.settings.setSecret('stripe', 'secret_key', 'sk_test_wrong_key_0000');
      const refused = await cardCheckout([line(other.id)]);
      expect(refused.status).toBe(503);
      expect((await errorOf(refused)).message).toBe('Failed to create checkout session');
      expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/checkout/sessions', status: 401 });
      expect(takeServerErrors(/Invalid API Key provided/)).toHaveLength(1);
      expect(await quantityOf(db, other.id)).toBe(1);
      await t.deps.settings.setSecret('stripe', 'secret_key', null);
      expect((await cardCheckout([line(other.id)])).status).toBe(201);
    });
  });
});
