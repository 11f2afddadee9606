/**
 * Paying by card in the cart and checkout journeys, against the real built server and the local
 * Stripe stand-in: a card payment to /success and back to the store, a cancelled payment and
 * paying again, the window-message confirmation step, and the /success page's error states.
 */
import { expect, it } from 'vitest';
import { formatUsd } from '#common/money';
import type { PaymentStatusResponse } from '#common/schemas/checkout';
import { RETURN_PAGE_MESSAGES } from '#web/features/checkout/utils/payment-polling';
import { describeBrowser, type BrowserSuite } from '../helpers/browser';
import {
  continueToPayment,
  expectAlert,
  expectStep,
  fillInfo,
  openCart,
  seedCart,
  SHOPPER,
  useCheckoutSuite,
} from '../helpers/browser-checkout';

async function paymentStatus(
  shop: BrowserSuite,
  reference: string,
  token?: string,
): Promise<PaymentStatusResponse> {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const res = await fetch(shop.url(`/api/payments/${reference}/status${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as PaymentStatusResponse;
}

describeBrowser('cart and checkout', () => {
  const { shop, stripe, pick } = useCheckoutSuite();

  it('pays by card through the Stripe stand-in, confirms on /success and goes back to the store', async () => {
    // The stand-in's hosted page has no favicon.
    shop.allowConsoleErrors(/status of 404/);
    const page = await shop.newPage();
    // Two units stay within what guests may hold together (half a product's units: decision 016).
    const first = pick((p) => p.quantity >= 4 && p.priceCents >= 1000, 'in stock');
    const second = pick((p) => p.quantity >= 1, 'in stock');
    await seedCart(page, [{ product: first, quantity: 2 }, { product: second }]);
    const drawer = await openCart(page);
    const cartTotal = await drawer.getByTestId('total').textContent();
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await fillInfo(drawer, SHOPPER);
    await continueToPayment(drawer);
    await expectStep(drawer, 'Payment');
    await drawer.getByRole('button', { name: 'Pay with Card' }).click();

    await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'));
    const session = stripe().lastSession()!;
    expect(formatUsd(session.session.amount_total)).toBe(cartTotal);
    expect(session.session.customer_email).toBe(SHOPPER.email);
    const reference = session.session.metadata.reference!;

    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/success');
    expect(new URL(page.url()).searchParams.get('reference')).toBe(reference);
    await page.getByRole('heading', { level: 1, name: 'Thank You for Your Order!' }).waitFor();

    // The order number (first 8 characters of its id); with the checkout's token (in the return
    // address) View Order Status is the guest order page, never the sign-in page.
    const token = new URL(page.url()).searchParams.get('token');
    expect(token).toBeTruthy();
    const status = await paymentStatus(shop, reference, token!);
    expect(status.status).toBe('completed');
    expect(await page.getByTestId('order-number').textContent()).toBe(status.order_id!.slice(0, 8));
    await page
      .getByText('You will receive tracking information within 48 hours once your order ships.')
      .waitFor();
    // The Stripe stand-in pays in test mode: the order is a demo one, and the page says so.
    expect(status.demo).toBe(true);
    await page
      .getByText('Demo order: paid with test money. Nothing was charged and nothing ships.')
      .waitFor();
    // The signed link of the order (its token carries its own expiry, so it is not compared whole).
    expect(await page.getByRole('link', { name: 'View Order Status' }).getAttribute('href')).toMatch(
      new RegExp(`^/orders/${status.order_id}\\?token=\\d+\\.`),
    );

    // The order is placed: the cart is empty.
    await page.getByRole('banner').getByRole('button', { name: 'Cart, 0 items' }).waitFor();
    await page.getByRole('link', { name: 'Continue Shopping' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const drawerAfter = await openCart(page);
    await drawerAfter.getByText('Your cart is empty', { exact: true }).waitFor();
    await expectStep(drawerAfter, 'Cart');
  });

  it('comes back from the card page through Cancel to the payment step with the error, and can pay again', async () => {
    shop.allowConsoleErrors(/status of 404/);
    const page = await shop.newPage();
    // All a guest may hold of it (half its units, rounded up: decision 016): paying again needs the
    // cancelled payment's reservation back.
    const product = pick((p) => p.quantity >= 1 && p.quantity <= 3, 'low in stock');
    await seedCart(page, [{ product, quantity: Math.ceil(product.quantity / 2) }]);
    const drawer = await openCart(page);
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await fillInfo(drawer, SHOPPER);
    await continueToPayment(drawer);
    await drawer.getByRole('button', { name: 'Pay with Card' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'));
    const reference = stripe().lastSession()!.session.metadata.reference!;

    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    const back = page.getByRole('dialog', { name: /Your Cart/ });
    await back.waitFor();
    await expectStep(back, 'Payment');
    await expectAlert(back, 'Payment cancelled');
    // The reservation was released on the server: the guest's share can be taken again.
    await expect.poll(async () => (await paymentStatus(shop, reference)).status).not.toBe('pending');
    await expect.poll(() => back.getByRole('button', { name: 'Pay with Card' }).isEnabled()).toBe(true);
    await back.getByRole('button', { name: 'Pay with Card' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'));
    expect(stripe().lastSession()!.session.metadata.reference).not.toBe(reference);
  });

  it('shows the confirmation step after the card-payment-success window message', async () => {
    const page = await shop.newPage();
    const product = pick((p) => p.quantity >= 1 && p.priceCents >= 5000, 'from $50.00');
    await seedCart(page, [{ product }]);
    const drawer = await openCart(page);
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await fillInfo(drawer, SHOPPER);
    await continueToPayment(drawer);
    await expectStep(drawer, 'Payment');

    // Another origin's message is ignored; the shop's own is the success callback.
    await page.evaluate(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'card-payment-success', reference: 'elsewhere' },
          origin: 'https://evil.example',
        }),
      );
    });
    // The listener ran during dispatchEvent; two frames let React commit anything it scheduled.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await expectStep(drawer, 'Payment');
    await page.evaluate(() =>
      window.postMessage({ type: 'card-payment-success', reference: 'ref-from-window' }, location.origin),
    );
    await expectStep(drawer, 'Confirmation');
    await drawer.getByText('Thank You for Your Order!', { exact: true }).waitFor();
    expect(await drawer.getByTestId('confirmation-total').textContent()).toBe(formatUsd(product.priceCents));
    expect(await drawer.textContent()).toContain(`${SHOPPER.firstName} ${SHOPPER.lastName}`);
    expect(await drawer.textContent()).toContain(SHOPPER.email);

    // The checkout is paid and closed: the cart is emptied at once, no Back leads to
    // paying again, a reload keeps the confirmation; Continue Shopping closes the drawer.
    await page.getByRole('banner').getByRole('button', { name: 'Cart, 0 items' }).waitFor();
    expect(await drawer.getByRole('button', { name: 'Back' }).count()).toBe(0);
    await page.reload();
    await openCart(page);
    await expectStep(drawer, 'Confirmation');
    await drawer.getByRole('button', { name: 'Continue Shopping' }).click();
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('banner').getByRole('button', { name: 'Cart, 0 items' }).waitFor();
  });

  it('answers /success without a reference with the store, and shows Payment Error for bad and failed payments', async () => {
    // The browser logs the 400 of the malformed reference and the 404s of the unknown one.
    shop.allowConsoleErrors(/status of 400/, /status of 404/);
    // The server sends a full load to the store itself: no empty page with the store drawn over it.
    for (const path of ['/success', '/success?reference=%20']) {
      const res = await fetch(shop.url(path), { redirect: 'manual' });
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 302, '/']);
    }
    const page = await shop.newPage({ width: 360, height: 740, isMobile: true });
    await page.goto('/success');
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');

    // A malformed reference: the server's message, polling stops.
    await page.goto('/success?reference=bad');
    await page.getByRole('heading', { level: 1, name: 'Payment Error' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Invalid payment reference');

    // A payment that ended without an order.
    const product = pick((p) => p.quantity >= 1, 'in stock');
    const reference = await page.evaluate(
      async ({ productId, size, color, shippingInfo }) => {
        const res = await fetch('/api/checkout', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            items: [{ productId, size, color, quantity: 1 }],
            shippingInfo,
            paymentMethod: 'card',
          }),
        });
        const body = (await res.json()) as { reference: string };
        await fetch(`/api/payments/${body.reference}/cancel`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
        });
        return body.reference;
      },
      {
        productId: product.id,
        size: product.sizes[0] ?? null,
        color: product.colors[0] ?? null,
        shippingInfo: SHOPPER,
      },
    );
    await page.goto(`/success?reference=${reference}`);
    await page.getByRole('heading', { level: 1, name: 'Payment Error' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/^Payment (cancelled|expired)$/);
    await page.getByRole('link', { name: 'Return to Store' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // A reference the server does not know is said at once, not polled for five minutes.
    const unknown = 'x'.repeat(32);
    let polls = 0;
    page.on('response', (res) => {
      if (res.url().endsWith(`/api/payments/${unknown}/status`)) polls += 1;
    });
    await page.goto(`/success?reference=${unknown}`);
    await page.getByRole('heading', { level: 1, name: 'Payment Error' }).waitFor({ timeout: 5_000 });
    expect(await page.getByRole('alert').textContent()).toBe(RETURN_PAGE_MESSAGES.notFound);
    await page.waitForTimeout(1_500); // a poll would have come by now
    expect(polls).toBe(1);
  });
});
