/**
 * In Chromium on the local ledger: every payment ends in exactly one order.
 * (1) A paid checkout is closed: the cart empties at once, in this tab, in another tab of the same
 *     browser and in another browser holding the same cart (the live `cart.closed` event); Back is
 *     gone from the confirmation and a reload keeps it; a stale tab's Pay is refused (409) and
 *     empties its cart.
 * (2) Part payments add up: half of the SOL link paid with web3.js shows what arrived and what is
 *     left; the rest, paid to the same link, confirms the order.
 * (4) The shopper leaves with a reference: Thank You (drawer and /success) shows the order number
 *     and "View Order Status" opens the guest order page for a guest. The AELO amount due shows its
 *     dollar value and "10% off", and the order review its discount line.
 * On the embedded PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
 * SCREENSHOTS_DIR=<dir> saves the confirmation, the part-paid block and /success at 360 and 1280 px.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { Connection, Keypair, type Transaction } from '@solana/web3.js';
import BigNumber from 'bignumber.js';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  CHECKOUT_SERVER_MESSAGES,
  type CheckoutResponse,
  type PaymentStatusResponse,
} from '#common/schemas/checkout';
import type { Product } from '#common/schemas/product';
import { CART_CLOSED_ELSEWHERE } from '#web/features/checkout/utils/cart-closed';
import {
  describeBrowser,
  useBrowserSuite,
  waitingForHydration,
  type BrowserSuite,
  type ShopServerOptions,
} from '../helpers/browser';
import { signUpCustomer } from '../helpers/browser-auth';
import { openCartWith, seedProductsThroughAdmin } from '../helpers/browser-catalog';
import {
  BACKENDS,
  createScratchDatabase,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';

/** Sends a transaction and polls its status until confirmed (no websocket subscription). */
async function sendConfirmed(connection: Connection, tx: Transaction, payer: Keypair): Promise<string> {
  const signature = await connection.sendTransaction(tx, [payer]);
  const state = await vi.waitFor(
    async () => {
      const [current] = (await connection.getSignatureStatuses([signature])).value;
      const confirmed =
        current?.confirmationStatus === 'confirmed' || current?.confirmationStatus === 'finalized';
      if (current && (current.err || confirmed)) return current;
      throw new Error(`transaction ${signature} not confirmed in 30 s`);
    },
    { timeout: 30_000, interval: 100 },
  );
  if (state.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(state.err)}`);
  return signature;
}

const SHOPPER = {
  'First Name': 'Maya',
  'Last Name': 'Lindqvist',
  Email: 'maya@example.com',
  Phone: '(415) 555-0134',
  Address: '220 Mission St',
  City: 'San Francisco',
  'ZIP Code': '94105',
};

const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR;

/** Saves a screenshot of the page (at `target`) 360 and 1280 px wide (only with SCREENSHOTS_DIR). */
async function screenshots(take: boolean, page: Page, name: string, target?: Locator): Promise<void> {
  if (!SCREENSHOTS_DIR || !take) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const before = page.viewportSize();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const file = path.join(SCREENSHOTS_DIR, `${name}-${width}.png`);
    // The page as the shopper sees it, scrolled to the part shown (the drawer scrolls inside).
    if (target) await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: file, fullPage: !target, animations: 'disabled' });
  }
  if (before) await page.setViewportSize(before);
}

async function fillInfoAndContinue(drawer: Locator, email = SHOPPER.Email): Promise<void> {
  await drawer.getByRole('button', { name: 'Checkout' }).click();
  for (const [label, value] of Object.entries({ ...SHOPPER, Email: email }))
    await drawer.getByLabel(label, { exact: true }).fill(value);
  await drawer.getByLabel('State', { exact: true }).selectOption('CA');
  await drawer.getByRole('button', { name: 'Continue to Payment' }).click();
  await drawer.getByRole('region', { name: 'Pay with crypto' }).waitFor();
}

async function toPaymentStep(page: Page, product: Product): Promise<Locator> {
  const drawer = await openCartWith(page, product);
  await fillInfoAndContinue(drawer);
  return drawer;
}

/** The cart drawer of a page whose cart is already in its storage. */
async function openCart(page: Page): Promise<Locator> {
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Cart, / })
    .click();
  const drawer = page.getByRole('dialog', { name: /Your Cart/ });
  await drawer.waitFor();
  return drawer;
}

/** Presses Pay with <coin> and answers the checkout the server made. */
async function startCrypto(page: Page, drawer: Locator, coin: 'SOL' | 'AELO'): Promise<CheckoutResponse> {
  const answer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/checkout' && r.request().method() === 'POST',
  );
  await drawer.getByRole('button', { name: `Pay with ${coin}` }).click();
  const response = await answer;
  expect(response.status()).toBe(201);
  return (await response.json()) as CheckoutResponse;
}

async function cartBadge(page: Page): Promise<string> {
  return (
    (await page
      .getByRole('banner')
      .getByRole('button', { name: /^Cart, / })
      .getAttribute('aria-label')) ?? ''
  );
}

async function status(shop: BrowserSuite, reference: string, token?: string): Promise<PaymentStatusResponse> {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const res = await fetch(shop.url(`/api/payments/${reference}/status${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as PaymentStatusResponse;
}

warnIfPostgresSkipped();

for (const backend of BACKENDS)
  describeBrowser(`one payment, one order (${backend})`, () => {
    const serverOptions: ShopServerOptions = {};
    let scratch: ScratchDatabase | undefined;
    beforeAll(async () => {
      scratch = await createScratchDatabase(backend);
      serverOptions.databaseUrl = scratch.url;
    });
    afterAll(async () => {
      await scratch?.drop();
    });
    const shop = useBrowserSuite(serverOptions);
    // The screenshots once, on the first backend.
    const shots = backend === BACKENDS[0];
    // No websocket: a web3.js client still subscribed when the suite's shop stops would reconnect
    // to its closed port for the rest of the worker (sendConfirmed polls instead).
    const localChain = () => new Connection(shop.url('/local-chain'), { commitment: 'confirmed' });
    let products: Product[];
    let payer: Keypair;
    beforeAll(async () => {
      products = await seedProductsThroughAdmin(
        shop.server,
        ['Align Legging', 'Court Skort', 'Trail Short', 'Flow Bra'].map((title, i) => ({
          title,
          priceCents: 2_400 + i * 100,
          quantity: 5,
        })),
      );
      const demo = (await (await fetch(shop.url('/api/chain/demo-wallet'))).json()) as {
        secretKey: number[];
      };
      payer = Keypair.fromSecretKey(Uint8Array.from(demo.secretKey));
    });

    it('a paid checkout is closed: no Back, reload keeps the confirmation, every tab is emptied, a stale Pay is refused', async () => {
      const page = await shop.newPage();
      const drawer = await toPaymentStep(page, products[0]!);
      const cart = await page.evaluate(() => localStorage.getItem('aelo-cart'));
      expect(cart).toContain('"cartId"');

      // A second tab of the same browser, holding the same cart.
      const tab = waitingForHydration(await page.context().newPage());
      await tab.goto('/');
      await expect.poll(() => cartBadge(tab)).toBe('Cart, 1 item');

      // Another browser holding the same cart (its id is the capability), at the payment step: the
      // live event alone reaches it.
      const other = await shop.newPage();
      await other.goto('/');
      await other.evaluate((value) => localStorage.setItem('aelo-cart', value!), cart);
      await other.reload();
      const otherDrawer = await openCart(other);
      await fillInfoAndContinue(otherDrawer);

      // A stale one: the same cart, deaf to live events (as after a missed event), at the payment step.
      const stale = await shop.newPage();
      await stale.route('**/api/events**', (route) => route.fulfill({ status: 204, body: '' }));
      await stale.goto('/');
      await stale.evaluate((value) => localStorage.setItem('aelo-cart', value!), cart);
      await stale.reload();
      const staleDrawer = await openCart(stale);
      await fillInfoAndContinue(staleDrawer);

      const checkout = await startCrypto(page, drawer, 'SOL');
      await drawer.getByRole('button', { name: 'Pay with browser wallet' }).click();
      await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 30_000 });

      // Closed: the cart is empty at once, nothing on the confirmation leads back to paying.
      await expect.poll(() => cartBadge(page)).toBe('Cart, 0 items');
      expect(await drawer.getByRole('button', { name: 'Back' }).count()).toBe(0);
      expect(await drawer.getByRole('button', { name: /^Pay with/ }).count()).toBe(0);
      const paid = await status(shop, checkout.reference, checkout.accessToken);
      expect(paid.status).toBe('completed');
      expect(await drawer.getByTestId('order-number').textContent()).toBe(paid.order_id!.slice(0, 8));
      await screenshots(shots, page, 'confirmation-step', drawer);

      // Closing the drawer without Continue Shopping, then a reload: still the confirmation, empty cart.
      await drawer.getByRole('button', { name: 'Close cart' }).click();
      await drawer.waitFor({ state: 'detached' });
      await page.reload();
      await expect.poll(() => cartBadge(page)).toBe('Cart, 0 items');
      const again = await openCart(page);
      await again.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor();
      expect(await again.getByRole('button', { name: /^Pay with/ }).count()).toBe(0);

      // The other tab of this browser and the other browser holding the cart are emptied.
      await expect.poll(() => cartBadge(tab)).toBe('Cart, 0 items');
      await expect.poll(() => cartBadge(other), { timeout: 10_000 }).toBe('Cart, 0 items');
      await otherDrawer.getByText(CART_CLOSED_ELSEWHERE, { exact: true }).waitFor();
      await otherDrawer.getByText('Your cart is empty', { exact: true }).waitFor();

      // The stale tab still shows the paid cart; its Pay is refused with the clear message, and the
      // cart empties.
      expect(await cartBadge(stale)).toBe('Cart, 1 item');
      shop.allowConsoleErrors(/status of 409/);
      await staleDrawer.getByRole('button', { name: 'Pay with SOL' }).click();
      await staleDrawer.getByText(CHECKOUT_SERVER_MESSAGES.cartAlreadyPaid, { exact: true }).waitFor();
      await staleDrawer.getByText('Your cart is empty', { exact: true }).waitFor();
      await expect.poll(() => cartBadge(stale)).toBe('Cart, 0 items');
      expect(await staleDrawer.getByRole('button', { name: /^Pay with/ }).count()).toBe(0);
    });

    it('part payments add up: half the SOL link shows what arrived and what is left, the rest confirms the order', async () => {
      const page = await shop.newPage();
      const drawer = await toPaymentStep(page, products[1]!);
      const checkout = await startCrypto(page, drawer, 'SOL');
      const url = await drawer
        .getByRole('button', { name: 'Copy payment link' })
        .getAttribute('data-payment-url');
      const request = parseURL(url!) as TransferRequestURL;
      const due = request.amount!;
      const half = due.dividedBy(2).decimalPlaces(9, BigNumber.ROUND_DOWN);
      const connection = localChain();
      const pay = async (amount: BigNumber) => {
        const tx = await createTransfer(connection, payer.publicKey, {
          recipient: request.recipient,
          amount,
          reference: request.reference!,
        });
        await sendConfirmed(connection, tx, payer);
      };

      await pay(half);
      const received = drawer.getByTestId('crypto-received');
      await received.waitFor({ timeout: 30_000 });
      const part = await status(shop, checkout.reference, checkout.accessToken);
      expect(part.status).toBe('pending');
      expect(part.received).toBeDefined();
      const { receivedText, dueText, remainingText, symbol } = part.received!;
      expect(symbol).toBe('SOL');
      expect(Number(receivedText)).toBeCloseTo(half.toNumber(), 3);
      expect(Number(dueText)).toBeCloseTo(due.toNumber(), 3);
      expect(await drawer.getByTestId('crypto-received-amount').textContent()).toBe(
        `Received ${receivedText} of ${dueText} SOL`,
      );
      expect(await drawer.getByTestId('crypto-remaining').textContent()).toBe(`${remainingText} SOL`);
      // The server's message, verbatim.
      if (part.message) await received.getByText(part.message, { exact: true }).waitFor();
      await screenshots(shots, page, 'part-paid', received);

      // The rest, to the same link: the order confirms, once.
      await pay(due.minus(half));
      await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 30_000 });
      const paid = await status(shop, checkout.reference, checkout.accessToken);
      expect(paid.status).toBe('completed');
      expect(paid.order_id).toBeTruthy();
      expect(await drawer.getByTestId('order-number').textContent()).toBe(paid.order_id!.slice(0, 8));
      await expect.poll(() => cartBadge(page)).toBe('Cart, 0 items');
    });

    it('the shopper leaves with a reference; the AELO amount due shows its dollars and 10% off', async () => {
      const page = await shop.newPage();
      const drawer = await toPaymentStep(page, products[2]!);
      const checkout = await startCrypto(page, drawer, 'AELO');
      expect(checkout.amounts.discountCents).toBeGreaterThan(0);
      const total = `$${(checkout.amounts.totalCents / 100).toFixed(2)}`;
      const discount = `$${(checkout.amounts.discountCents / 100).toFixed(2)}`;
      expect(await drawer.getByTestId('crypto-amount').textContent()).toMatch(/ AELO$/);
      expect(await drawer.getByTestId('crypto-amount-usd').textContent()).toBe(total);
      expect(await drawer.getByTestId('crypto-discount').textContent()).toBe('10% off');
      // The order review: the discount line and the total charged.
      expect(await drawer.getByTestId('review-discount').textContent()).toBe(
        `AELO discount (10% off)−${discount}`,
      );
      expect(await drawer.getByTestId('review-total').textContent()).toBe(total);
      await screenshots(shots, page, 'aelo-amount-due', drawer.getByTestId('crypto-amount'));

      await drawer.getByRole('button', { name: 'Pay with browser wallet' }).click();
      await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 30_000 });
      const paid = await status(shop, checkout.reference, checkout.accessToken);
      expect(paid.status).toBe('completed');
      expect(paid.order_number).toBe(paid.order_id!.slice(0, 8));
      // The signed link (its token carries its own expiry, so two answers may differ in it).
      const guestPage = new RegExp(`^/orders/${paid.order_id}\\?token=\\d+\\.`);
      expect(paid.order_url).toMatch(guestPage);
      expect(await drawer.getByTestId('order-number').textContent()).toBe(paid.order_number);
      expect(await drawer.getByTestId('confirmation-total').textContent()).toBe(total);

      // The drawer's link: the guest order page (the mail's signed link).
      const link = drawer.getByRole('link', { name: 'View Order Status' });
      expect(await link.getAttribute('href')).toMatch(guestPage);
      await link.click();
      await page.waitForURL((u) => u.pathname.startsWith('/orders/'));
      await page.getByRole('heading', { name: `Order #${paid.order_number}` }).waitFor();
      await page.getByText(products[2]!.title).first().waitFor();

      // /success with the checkout's token (the card flow's return address) names the order too, and
      // a guest's View Order Status goes to the guest order page, not to /login.
      await page.goto(
        `/success?reference=${checkout.reference}&token=${encodeURIComponent(checkout.accessToken)}`,
      );
      await page.getByRole('heading', { level: 1, name: 'Thank You for Your Order!' }).waitFor();
      expect(await page.getByTestId('order-number').textContent()).toBe(paid.order_number);
      const view = page.getByRole('link', { name: 'View Order Status' });
      expect(await view.getAttribute('href')).toMatch(guestPage);
      await screenshots(shots, page, 'success');
      await view.click();
      await page.waitForURL((u) => u.pathname.startsWith('/orders/'));
      await page.getByRole('heading', { name: `Order #${paid.order_number}` }).waitFor();
    });

    it("a signed-in customer's View Order Status goes to the order in their account", async () => {
      const page = await shop.newPage();
      await page.goto('/');
      const email = await signUpCustomer(page, shop.server, 'paid');
      const drawer = await openCartWith(page, products[3]!);
      await fillInfoAndContinue(drawer, email);
      // The wallet pressed before the Local Demo Wallet has its key (a slow answer): the press
      // waits for it instead of asking the shopper to install a wallet.
      await page.route('**/api/chain/demo-wallet', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      });
      const checkout = await startCrypto(page, drawer, 'SOL');
      await drawer.getByRole('button', { name: 'Pay with browser wallet' }).click();
      await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 30_000 });
      const paid = await status(shop, checkout.reference, checkout.accessToken);
      expect(paid.account_order_url).toBeTruthy();
      expect(await drawer.getByRole('link', { name: 'View Order Status' }).getAttribute('href')).toBe(
        paid.account_order_url,
      );

      await page.goto(
        `/success?reference=${checkout.reference}&token=${encodeURIComponent(checkout.accessToken)}`,
      );
      const view = page.getByRole('link', { name: 'View Order Status' });
      await view.waitFor();
      expect(await view.getAttribute('href')).toBe(paid.account_order_url);
      await view.click();
      await page.waitForURL((u) => u.pathname.startsWith('/profile/orders'));
      await page.getByText(products[3]!.title).first().waitFor();
    });
  });

/**
 * (3) A late payment, on the page left open: the payment's time ends with nothing paid ('Payment
 * timeout. Please try again.', the spec's words), then its link is paid: the page keeps following
 * the status and shows the order (the items could still be held) instead of the stale timeout.
 * Checkouts here last one minute (RESERVATION_MINUTES=1), the shortest the server allows.
 */
describeBrowser('a late payment on the open page', () => {
  const shop = useBrowserSuite({ env: { RESERVATION_MINUTES: '1' } });
  let product: Product;
  let payer: Keypair;
  beforeAll(async () => {
    const seeded = await seedProductsThroughAdmin(shop.server, [
      { title: 'Late Legging', priceCents: 2_600 },
    ]);
    product = seeded[0]!;
    const demo = (await (await fetch(shop.url('/api/chain/demo-wallet'))).json()) as { secretKey: number[] };
    payer = Keypair.fromSecretKey(Uint8Array.from(demo.secretKey));
  });

  it('says Payment timeout when nothing was paid, then shows the order when the link is paid late', async () => {
    const page = await shop.newPage();
    const drawer = await toPaymentStep(page, product);
    const checkout = await startCrypto(page, drawer, 'SOL');
    const url = await drawer
      .getByRole('button', { name: 'Copy payment link' })
      .getAttribute('data-payment-url');
    const request = parseURL(url!) as TransferRequestURL;

    // Nothing paid in its minute: the spec's timeout, and the coins to choose again.
    await drawer
      .getByText('Payment timeout. Please try again.', { exact: true })
      .waitFor({ timeout: 90_000 });
    await drawer.getByRole('button', { name: 'Pay with SOL' }).waitFor();
    expect((await status(shop, checkout.reference)).status).toBe('expired');

    // Paid late, to the same link: the open page follows it to the order.
    const connection = new Connection(shop.url('/local-chain'), { commitment: 'confirmed' });
    const tx = await createTransfer(connection, payer.publicKey, {
      recipient: request.recipient,
      amount: request.amount!,
      reference: request.reference!,
    });
    await sendConfirmed(connection, tx, payer);
    await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 20_000 });
    const paid = await status(shop, checkout.reference, checkout.accessToken);
    expect(paid.status).toBe('completed');
    expect(await drawer.getByTestId('order-number').textContent()).toBe(paid.order_number);
    await expect.poll(() => cartBadge(page)).toBe('Cart, 0 items');
  });
});
