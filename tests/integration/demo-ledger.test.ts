/**
 * The local demo ledger in production (LOCAL_LEDGER, src/server/config.ts). Its faucet hands out SOL
 * to anyone and its demo wallet's key is public, so a shop whose configuration looks live (here an
 * https PUBLIC_URL; DATABASE_URL too on PostgreSQL) runs no ledger unless told to: no /local-chain, no
 * demo wallet, crypto "not configured". Told to (LOCAL_LEDGER=demo), every page says its payments
 * are not real, in the HTML the server sends, and the orders it pays are marked demo (the admin's and
 * the guest's order DTOs, the confirmation mail), as are card orders in Stripe's test mode.
 */
import type { Connection, Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';
import type { AdminOrder } from '#common/schemas/admin-orders';
import { CHECKOUT_SERVER_MESSAGES } from '#common/schemas/checkout';
import type { GuestOrder } from '#common/schemas/guest-order';
import type { ShopInfo } from '#common/schemas/shop';
import { checkout, postCheckout } from '../factories/checkout';
import { createProduct } from '../factories/product';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import {
  CHECKOUT_LIMITS,
  cryptoCheckout,
  demoShopper,
  paymentStatus,
  payTransferRequest,
  waitForStatus,
} from '../helpers/crypto-checkout';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { connect, startShop, stopShop, type RunningShop } from '../helpers/shop-server';
import { startTestApp, TEST_ORIGIN, type TestApp, type TestClient } from '../helpers/test-app';
import { json } from './admin-test-kit';

/** A shop that looks live: production, served over https (the test client's origin trusted too). */
const LIVE_LOOKING = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://shop.example',
  TRUSTED_ORIGINS: TEST_ORIGIN,
  ...CHECKOUT_LIMITS,
};

/** Returning visitors: no first-visit dialogs in the pages. */
const RETURNING = { cookie: 'aelo-disclaimer-accepted=true; aelo-cookie-consent=true' };

const requestAirdrop = {
  jsonrpc: '2.0',
  id: 1,
  method: 'requestAirdrop',
  params: ['7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', 20_000_000_000],
};

async function page(t: TestApp, path: string, client?: TestClient): Promise<string> {
  // A client brings its session's cookies (the admin's pages); anonymous visits are returning visitors.
  const res = client ? await client.get(path) : await t.app.request(path, { headers: RETURNING });
  const html = await res.text();
  expect(res.status, `${path}: ${html.slice(0, 300)}`).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return html;
}

async function signedInAdmin(t: TestApp): Promise<TestClient> {
  const email = `demo-admin-${Date.now().toString(36)}@example.com`;
  await t.deps.auth.createUser({ email, password: 'admin-pass-1234', role: 'admin' });
  const admin = t.client();
  await json(await admin.post('/api/auth/sign-in/email', { email, password: 'admin-pass-1234' }), 200);
  return admin;
}

describe.each(BACKENDS)('a live-looking shop without LOCAL_LEDGER (%s)', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    // LOCAL_LEDGER '' is unset: the automatic rule (the test helpers otherwise opt in).
    t = await startTestApp({ backend, env: { ...LIVE_LOOKING, LOCAL_LEDGER: '' } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('runs no demo ledger: no /local-chain faucet, no demo wallet', async () => {
    expect(t.deps.config.solana.localLedger).toBe(false);
    const faucet = await t.app.request('/local-chain', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
      body: JSON.stringify(requestAirdrop),
    });
    // No ledger route: the POST reaches the page layer, which refuses another site's form post.
    expect(faucet.status).toBe(403);
    expect(await faucet.text()).not.toContain('"result"');
    const wallet = await t.app.request('/api/chain/demo-wallet');
    expect(wallet.status).toBe(404);
    expect(await wallet.text()).not.toContain('secretKey');
  });

  it('answers a SOL or AELO checkout with "not configured", as a real cluster lacking its settings', async () => {
    const product = await createProduct(t.deps.database.db, { quantity: 3 });
    for (const paymentMethod of ['sol', 'aelo'] as const) {
      const { res } = await postCheckout(t, { paymentMethod, product });
      const body = await json<{ error: { code: string; message: string } }>(res, 503);
      expect(body.error).toEqual({
        code: 'NOT_CONFIGURED',
        message: CHECKOUT_SERVER_MESSAGES.cryptoNotConfigured,
      });
    }
    const config = await json<{ crypto: { enabled: boolean } }>(
      await t.app.request('/api/checkout/config'),
      200,
    );
    expect(config.crypto.enabled).toBe(false);
    const shop = await json<ShopInfo>(await t.app.request('/api/shop'), 200);
    expect(shop.token).toMatchObject({ paymentsEnabled: false, salesEnabled: false, demoWallet: false });
    expect(shop.token.cluster).not.toBe('local');
  });

  it('sells no AELO (Buy Token not configured) and airdrops nothing', async () => {
    const purchase = await t.client().post('/api/token-purchases', { amountUsd: '100' });
    expect((await json<{ error: { code: string } }>(purchase, 503)).error.code).toBe('NOT_CONFIGURED');
    // The scheduler's tick: no chain to read holders from, nothing paid, no run recorded.
    const outcome = await t.deps.airdrops.tick().then(
      (result) => result.runs,
      (err: unknown) => (err as { code?: string }).code,
    );
    expect([[], 'NOT_CONFIGURED']).toContainEqual(outcome);
    expect(await t.deps.database.db.selectFrom('airdrop_runs').select('id').execute()).toEqual([]);
  });

  it('shows no demo banner', async () => {
    const html = await page(t, '/');
    // The page itself, straight after <body>.
    expect(html).toMatch(/<body><div[^>]*>[\s\S]*<header/);
    expect(html).not.toContain(DEMO_LEDGER_TEXTS.headline);
  });
});

describe.each(BACKENDS)('LOCAL_LEDGER=demo on a live-looking shop (%s)', (backend) => {
  let fake: FakeStripeServer;
  let shop: RunningShop;
  let t: TestApp;
  let connection: Connection;
  let shopper: Keypair;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    shop = await startShop({
      backend,
      env: { ...LIVE_LOOKING, ...stripeEnv(fake), LOCAL_LEDGER: 'demo' },
    });
    t = shop.t;
    fake.setWebhook(async (req) => t.app.request(req));
    connection = connect(shop);
    shopper = await demoShopper(shop);
  }, 60_000);
  afterAll(async () => {
    if (shop) await stopShop(shop);
    await fake?.close();
  });

  /** The banner, server-rendered once as the first element of the body: its headline and its sentence. */
  const expectBanner = (html: string) => {
    const banner =
      /<body><section class="demo-ledger-banner" aria-label="Demo ledger notice">[\s\S]*?<\/section>/.exec(
        html,
      );
    expect(banner, 'the demo ledger banner').not.toBeNull();
    expect(banner![0]).toContain(DEMO_LEDGER_TEXTS.headline);
    expect(banner![0]).toContain(DEMO_LEDGER_TEXTS.detail);
    expect(html.split(DEMO_LEDGER_TEXTS.headline)).toHaveLength(2);
  };

  it('says "Demo ledger: payments are not real" in the server-rendered landing page', async () => {
    expect(t.deps.config.solana).toMatchObject({ localLedger: true, demoLedger: 'opted-in' });
    const html = await page(t, '/');
    expectBanner(html);
    // Rendered on the server: the page's markup (after the banner) and its data are in the HTML.
    expect(html).toMatch(/<\/section><div[^>]*>[\s\S]*<header/);
    expect(html).toContain('window.__reactRouterContext.streamController.enqueue(');
    // The page cache serves the same (a second anonymous visit).
    expectBanner(await page(t, '/'));
  });

  it('says it on the admin pages too (the sign-in page and the back office)', async () => {
    expectBanner(await page(t, '/admin/login'));
    const admin = await signedInAdmin(t);
    expectBanner(await page(t, '/admin', admin));
    expectBanner(await page(t, '/admin/orders', admin));
  });

  it('keeps its faucet and demo wallet (opted in)', async () => {
    const faucet = await t.app.request('/local-chain', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    });
    expect(await json<{ result: string }>(faucet, 200)).toMatchObject({ result: 'ok' });
  });

  it('marks a crypto order paid on it as demo: the admin and guest DTOs and the confirmation mail', async () => {
    const started = await cryptoCheckout(shop, 'sol', { priceCents: 2_000 });
    await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
    const done = await waitForStatus(shop, started.reference, 'completed', 30_000);
    const orderId = done.order_id!;

    const admin = await signedInAdmin(t);
    const list = await json<{ items: AdminOrder[] }>(
      await admin.get(`/api/admin/orders?search=${orderId.slice(0, 8)}`),
      200,
    );
    expect(list.items.map((o) => [o.id, o.paymentMethod, o.demo])).toEqual([[orderId, 'sol', true]]);

    const [mail] = await t.deps.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('event_key', '=', `order-confirmed:${orderId}`)
      .execute();
    expect(mail?.text_body).toContain(DEMO_LEDGER_TEXTS.orderMailLine);
    expect(mail?.text_body).not.toContain('You will receive tracking information');

    const link = /\/orders\/([0-9a-f-]{36})\?token=([^\s"<]+)/.exec(mail!.text_body);
    expect(link?.[1]).toBe(orderId);
    const guest = await json<GuestOrder>(
      await t.client().get(`/api/guest-orders/${orderId}?token=${link![2]}`),
      200,
    );
    expect(guest).toMatchObject({ id: orderId, demo: true });
  });

  it('marks a card order demo when Stripe says test mode (livemode false), and not in live mode', async () => {
    const cardOrder = async (livemode: boolean) => {
      const { reference } = await checkout(t, { paymentMethod: 'card', product: { quantity: 2 } });
      const { session } = fake.lastSession()!;
      const paid = { ...session, status: 'complete', payment_status: 'paid' };
      await fake.sendEvent({
        ...fake.buildEvent('checkout.session.completed', paid as typeof session),
        livemode,
      });
      return t.deps.database.db
        .selectFrom('orders')
        .innerJoin('payments', 'payments.id', 'orders.payment_id')
        .select(['orders.id', 'orders.demo'])
        .where('payments.reference', '=', reference)
        .executeTakeFirstOrThrow();
    };
    expect((await cardOrder(false)).demo).toBe(true);
    expect((await cardOrder(true)).demo).toBe(false);
  });

  it('says demo in the payment status the confirmation screens read (the server decides)', async () => {
    // A SOL payment on the demo ledger: its status (with and without the access token) says demo.
    const started = await cryptoCheckout(shop, 'sol', { priceCents: 1_500 });
    await payTransferRequest(connection, shopper, started.crypto.paymentUrl);
    const done = await waitForStatus(shop, started.reference, 'completed', 30_000);
    expect(done.demo).toBe(true);
    const named = await paymentStatus(shop, started.reference, started.accessToken);
    expect(named).toMatchObject({ status: 'completed', demo: true });

    // A card payment: live mode is not demo, Stripe's test mode is.
    const cardStatus = async (livemode: boolean) => {
      const { reference, accessToken } = await checkout(t, {
        paymentMethod: 'card',
        product: { quantity: 2 },
      });
      // Before it is paid: pending, not demo.
      expect(await paymentStatus(shop, reference)).toMatchObject({ status: 'pending', demo: false });
      const { session } = fake.lastSession()!;
      const paid = { ...session, status: 'complete', payment_status: 'paid' };
      await fake.sendEvent({
        ...fake.buildEvent('checkout.session.completed', paid as typeof session),
        livemode,
      });
      return paymentStatus(shop, reference, accessToken);
    };
    expect(await cardStatus(true)).toMatchObject({
      status: 'completed',
      payment_method: 'card',
      demo: false,
    });
    expect(await cardStatus(false)).toMatchObject({
      status: 'completed',
      payment_method: 'card',
      demo: true,
    });
  });
});
