/**
 * /profile/orders in Chromium: a shopper who paid as a guest (SOL on the local ledger, paid by a
 * wallet from the checkout's Solana Pay link) signs up with the same email; the order shows only
 * once the email is confirmed from the outbox's link; search and filters narrow the list, and
 * 'No orders found' says when nothing matches.
 */
import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { Connection, Keypair, sendAndConfirmTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CheckoutResponse } from '#common/schemas/checkout';
import { outboxLink } from '../helpers/outbox';
import { describeBrowser, useBrowserSuite, type ShopServerOptions } from '../helpers/browser';
import { seedProductsThroughAdmin } from '../helpers/browser-catalog';
import { startFakeUsps, type FakeUsps } from '../fakes/usps-server';

describeBrowser('account orders', () => {
  // USPS is a local stand-in speaking its wire format; the shop has its credentials.
  const serverOptions: ShopServerOptions = {};
  let usps: FakeUsps | undefined;
  beforeAll(async () => {
    usps = await startFakeUsps();
    serverOptions.env = {
      USPS_API_URL: usps.url,
      USPS_CLIENT_ID: usps.credentials.clientId,
      USPS_CLIENT_SECRET: usps.credentials.clientSecret,
    };
  });
  afterAll(() => usps?.close());
  const shop = useBrowserSuite(serverOptions);

  it('shows a guest order after the email is confirmed, with search and filters', async () => {
    const email = `orders-${Date.now().toString(36)}@example.com`;
    const [product] = await seedProductsThroughAdmin(shop.server, [
      { title: 'Harbor Run Jacket', priceCents: 8_800, quantity: 3 },
    ]);
    // A guest pays in SOL from the checkout's Solana Pay link.
    const res = await fetch(shop.url('/api/checkout'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [
          {
            productId: product!.id,
            size: product!.sizes[0] ?? null,
            color: product!.colors[0] ?? null,
            quantity: 1,
          },
        ],
        shippingInfo: {
          firstName: 'Maya',
          lastName: 'Lindqvist',
          email,
          phone: '4155550134',
          address: '220 Mission St',
          city: 'San Francisco',
          state: 'CA',
          zipCode: '94105',
          country: 'US',
        },
        paymentMethod: 'sol',
      }),
    });
    expect(res.status).toBe(201);
    const checkout = (await res.json()) as CheckoutResponse;
    const demo = (await (await fetch(shop.url('/api/chain/demo-wallet'))).json()) as { secretKey: number[] };
    const payer = Keypair.fromSecretKey(Uint8Array.from(demo.secretKey));
    const connection = new Connection(shop.url('/local-chain'), {
      commitment: 'confirmed',
      wsEndpoint: shop.url('/local-chain').replace('http', 'ws'),
    });
    const request = parseURL(checkout.crypto!.paymentUrl) as TransferRequestURL;
    const tx = await createTransfer(connection, payer.publicKey, {
      recipient: request.recipient,
      amount: request.amount!,
      reference: request.reference!,
    });
    await sendAndConfirmTransaction(connection, tx, [payer], { commitment: 'confirmed' });
    await outboxLink(shop.server.dataDir, email, /\/orders\/[0-9a-f-]{36}\?token=/);

    // Signed up with that email: nothing shows until the email is confirmed.
    const page = await shop.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('harbor-lights-71');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/orders');
    await page.getByText('No orders found').waitFor();

    await page.goto(
      await outboxLink(shop.server.dataDir, email, /https?:\/\/[^\s"<]+\/verify-email\?token=[^\s"<]+/),
    );
    // The link's page asks for a password step; the shopper made the account and gives its password.
    await page.getByRole('button', { name: "I know this account's password" }).click();
    await page.getByLabel('Password', { exact: true }).fill('harbor-lights-71');
    await page.getByRole('button', { name: 'Confirm email' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/orders');
    const card = page.getByRole('article', { name: /^Order [0-9a-f]{8}$/ });
    await card.waitFor();
    expect(await card.textContent()).toContain('Harbor Run Jacket');
    expect(await card.textContent()).toContain('Pending');
    await card.getByRole('link', { name: /view the payment on the explorer/ }).waitFor();

    await page.getByRole('searchbox', { name: 'Search orders' }).fill('harbor');
    await card.waitFor();
    await page.getByRole('searchbox', { name: 'Search orders' }).fill('no such thing');
    await page.getByText('No orders found').waitFor();
    await page.getByRole('searchbox', { name: 'Search orders' }).fill('');
    await card.waitFor();
    await page.getByLabel('Status').selectOption('shipped');
    await page.getByText('No orders found').waitFor();
    await page.getByLabel('Status').selectOption('all');
    await page.getByLabel('Date').selectOption('7d');
    await card.waitFor();

    // The shop ships it: the carrier's tracking link and, from the server, the parcel's status.
    const mine = (await (await page.request.get(shop.url('/api/orders'))).json()) as {
      orders: Array<{ id: string }>;
    };
    const orderId = mine.orders[0]!.id;
    const trackingNumber = '9400111899223817000042';
    usps!.parcels.set(trackingNumber, {
      status: 'In Transit to Next Facility',
      statusCategory: 'In Transit',
      events: [
        {
          eventType: 'Departed USPS Regional Facility',
          eventTimestamp: '2026-11-23T21:40:00Z',
          eventCity: 'OAKLAND',
          eventState: 'CA',
        },
      ],
    });
    const admin = await shop.newPage();
    await admin.goto('/admin/login');
    await admin.getByLabel('Email', { exact: true }).fill(shop.server.admin.email);
    await admin.getByLabel('Password', { exact: true }).fill(shop.server.admin.password);
    await admin.getByRole('button', { name: 'Sign in', exact: true }).click();
    await admin.waitForURL((url) => url.pathname !== '/admin/login');
    const shipped = await admin.request.patch(shop.url(`/api/admin/orders/${orderId}`), {
      headers: { origin: new URL(shop.url('/')).origin },
      data: { status: 'shipped', trackingNumber },
    });
    expect(shipped.status()).toBe(200);
    await page.getByLabel('Date').selectOption('all');
    await card.getByRole('link', { name: new RegExp(trackingNumber) }).waitFor();
    const status = card.locator('[data-tracking-status]');
    await status.waitFor();
    expect(await status.textContent()).toContain('In Transit to Next Facility');
    expect(await status.textContent()).toContain('Oakland, CA');
  });
});
