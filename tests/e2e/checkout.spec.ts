/**
 * Cart and checkout journeys on a few products seeded through the admin API, against the real built server and the
 * local Stripe stand-in (tests/fakes/stripe-server.ts, whose webhook target is the server's
 * /api/webhooks/stripe): the cart drawer's four steps with every validation message, shipping
 * below and above $50.00, quantities capped by stock, the cart kept across a reload, a card
 * payment to /success and back to the store, a cancelled payment, the /success error states, the
 * window-message confirmation step, and the card block without Stripe keys.
 */
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cartTotals, formatUsd } from '#common/money';
import { CHECKOUT_MESSAGES, type PaymentStatusResponse } from '#common/schemas/checkout';
import type { Product, ProductInput } from '#common/schemas/product';
import { startFakeStripe, type FakeStripeServer } from '../fakes/stripe-server';
import { RETURN_PAGE_MESSAGES } from '#web/features/checkout/utils/payment-polling';
import { describeBrowser, useBrowserSuite, type BrowserSuite } from '../helpers/browser';
import { seedProductsThroughAdmin } from '../helpers/browser-catalog';

const ALL_MISSING =
  'Please fill in all required fields: First Name, Last Name, Email, Phone, Address, City, State, ZIP Code, Country';

const SHOPPER = {
  firstName: 'Maya',
  lastName: 'Lindqvist',
  email: 'maya@example.com',
  phone: '(415) 555-0134',
  address: '220 Mission St',
  city: 'San Francisco',
  state: 'CA',
  zipCode: '94105',
  country: 'United States',
} as const;

const LABELS: Record<keyof typeof SHOPPER, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  city: 'City',
  state: 'State',
  zipCode: 'ZIP Code',
  country: 'Country',
};

/** Stock and prices the journeys below ask for; the rest of each product is the helper's default. */
const JOURNEY_PRODUCTS = [
  { title: 'Align Legging', priceCents: 1_200, quantity: 10 },
  { title: 'Court Skort', priceCents: 2_500, quantity: 2, category: 'womens-skirts' },
  { title: 'Trail Short', priceCents: 2_800, quantity: 3, gender: 'mens', category: 'mens-shorts' },
  { title: 'Studio Jacket', priceCents: 6_500, quantity: 5, category: 'womens-jackets' },
  { title: 'Run Tank', priceCents: 3_400, quantity: 8, category: 'womens-tanks' },
  { title: 'Flow Bra', priceCents: 2_900, quantity: 6, category: 'womens-bras' },
  { title: 'Tempo Tee', priceCents: 3_200, quantity: 7, gender: 'mens', category: 'mens-tops' },
  { title: 'Pace Jogger', priceCents: 5_400, quantity: 4, gender: 'mens', category: 'mens-pants' },
  { title: 'Base Legging', priceCents: 4_100, quantity: 9 },
  { title: 'Warmup Hoodie', priceCents: 4_800, quantity: 6, category: 'womens-hoodies' },
  { title: 'Recovery Short', priceCents: 2_200, quantity: 5, gender: 'mens', category: 'mens-shorts' },
  { title: 'Cooldown Pant', priceCents: 3_900, quantity: 3 },
  { title: 'Stride Tank', priceCents: 2_700, quantity: 4, category: 'womens-tanks' },
  { title: 'Ridge Jacket', priceCents: 7_200, quantity: 2, gender: 'mens', category: 'mens-jackets' },
] as const satisfies ReadonlyArray<Partial<ProductInput>>;

interface SeedLine {
  product: Product;
  quantity?: number;
}

async function allProducts(shop: BrowserSuite): Promise<Product[]> {
  const res = await fetch(shop.url('/api/products?limit=48'));
  expect(res.status).toBe(200);
  const page = (await res.json()) as { products: Product[]; nextCursor: string | null };
  expect(page.nextCursor).toBeNull();
  return page.products;
}

/** Products handed out once each, so that journeys never compete for the same stock. */
function productPool(products: Product[]) {
  const used = new Set<string>();
  return (test: (p: Product) => boolean, what: string): Product => {
    const found = products.find((p) => !used.has(p.id) && p.quantity > 0 && test(p));
    if (!found) throw new Error(`The seeded products have no unused one that is ${what}`);
    used.add(found.id);
    return found;
  };
}

/** Puts lines in the persisted cart (as the product modal would) and reloads the page. */
async function seedCart(page: Page, lines: SeedLine[]): Promise<void> {
  const items = lines.map(({ product, quantity = 1 }) => ({
    productId: product.id,
    title: product.title,
    priceCents: product.priceCents,
    image: product.images[0]?.url ?? '',
    quantity,
    stock: product.quantity,
    selectedSize: product.sizes[0] ?? '',
    selectedColor: product.colors[0] ?? '',
  }));
  if (!page.url().startsWith('http')) await page.goto('/');
  await page.evaluate(
    (value) => localStorage.setItem('aelo-cart', value),
    JSON.stringify({ state: { items }, version: 1 }),
  );
  await page.reload();
}

async function openCart(page: Page): Promise<Locator> {
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Cart, / })
    .click();
  const drawer = page.getByRole('dialog', { name: /Your Cart/ });
  await drawer.waitFor();
  return drawer;
}

/** The label of the step marked aria-current="step" (without its number). */
async function currentStep(drawer: Locator): Promise<string> {
  const step = drawer.getByRole('list', { name: 'Checkout progress' }).locator('[aria-current="step"]');
  return ((await step.textContent()) ?? '').replace(/^\d+/, '').trim();
}

async function expectStep(drawer: Locator, label: string): Promise<void> {
  await expect.poll(() => currentStep(drawer)).toBe(label);
}

async function fillInfo(drawer: Locator, info: Partial<Record<keyof typeof SHOPPER, string>>): Promise<void> {
  for (const [key, value] of Object.entries(info)) {
    const field = drawer.getByLabel(LABELS[key as keyof typeof SHOPPER], { exact: true });
    // State and Country are selects (an empty value chooses nothing).
    if (key === 'state' || key === 'country') await field.selectOption(value);
    else await field.fill(value);
  }
}

async function continueToPayment(drawer: Locator): Promise<void> {
  await drawer.getByRole('button', { name: 'Continue to Payment' }).click();
}

async function alertText(drawer: Locator): Promise<string> {
  const alert = drawer.getByRole('alert');
  await alert.waitFor();
  return ((await alert.textContent()) ?? '').trim();
}

async function expectAlert(drawer: Locator, message: string): Promise<void> {
  await expect.poll(() => alertText(drawer)).toBe(message);
}

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

function newEmail(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

describeBrowser('cart and checkout', () => {
  // The Stripe stand-in starts first; the server gets its keys and URL through `env`, which is
  // read when the suite's server starts (the hook registered next).
  const env: Record<string, string> = {};
  let stripe: FakeStripeServer | undefined;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    env.STRIPE_SECRET_KEY = stripe.secretKey;
    env.STRIPE_WEBHOOK_SECRET = stripe.webhookSecret;
    env.STRIPE_API_URL = stripe.url;
  });
  const shop = useBrowserSuite({ env });
  let pick: ReturnType<typeof productPool>;
  beforeAll(async () => {
    stripe?.setWebhook(shop.url('/api/webhooks/stripe'));
    // A few products with the stock and prices the journeys need (each one used once).
    await seedProductsThroughAdmin(shop.server, JOURNEY_PRODUCTS);
    pick = productPool(await allProducts(shop));
  });
  afterAll(async () => {
    await stripe?.close();
  });
  it('shows every field error at once beside its field, with the spec banner above, and offers US states', async () => {
    const page = await shop.newPage();
    const product = pick((p) => p.quantity >= 1, 'in stock');
    await seedCart(page, [{ product }]);
    const drawer = await openCart(page);
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    const states = await drawer.getByLabel('State', { exact: true }).locator('option').allTextContents();
    expect(states).toHaveLength(52); // "Choose…", 50 states and DC
    expect(states).toContain('District of Columbia');
    await fillInfo(drawer, { ...SHOPPER, city: '', email: 'maya@', phone: '555', zipCode: '9410' });
    await continueToPayment(drawer);
    await expectAlert(drawer, 'Please fill in all required fields: City');
    const errorOf = async (label: string) => {
      const field = drawer.getByLabel(label, { exact: true });
      expect(await field.getAttribute('aria-invalid'), label).toBe('true');
      const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
      const texts = await Promise.all(ids.map((id) => drawer.locator(`[id="${id}"]`).textContent()));
      return texts.join(' ');
    };
    expect(await errorOf('City')).toBe('City is required');
    expect(await errorOf('Email')).toBe('Please enter a valid email address');
    expect(await errorOf('Phone')).toBe('Please enter a valid phone number (10 digits)');
    expect(await errorOf('ZIP Code')).toBe('Please enter a valid ZIP code (5 digits or 5+4 format)');
    expect(await drawer.getByLabel('First Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    // Correcting a field clears its own message.
    await drawer.getByLabel('City', { exact: true }).fill('San Francisco');
    expect(await drawer.getByLabel('City', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    await fillInfo(drawer, { email: SHOPPER.email, phone: SHOPPER.phone, zipCode: SHOPPER.zipCode });
    await continueToPayment(drawer);
    expect(await currentStep(drawer)).toBe('Payment');
  });

  it('walks Cart, Info and Payment with every validation message, Back, and the empty cart', async () => {
    const page = await shop.newPage();
    const product = pick((p) => p.quantity >= 2 && p.sizes.length > 0 && p.colors.length > 0, 'in stock');
    await seedCart(page, [{ product }]);
    const drawer = await openCart(page);
    await expectStep(drawer, 'Cart');

    // The line: image, title, size, colour, quantity, remove, line total.
    const line = drawer.getByRole('listitem', { name: product.title });
    expect(await line.locator('img').count()).toBe(1);
    expect(await line.textContent()).toContain(`Size ${product.sizes[0]}`);
    expect(await line.textContent()).toContain(`Color ${product.colors[0]}`);
    expect(await line.getByTestId('line-total').textContent()).toContain(formatUsd(product.priceCents));
    await line.getByRole('button', { name: `Remove ${product.title}` }).waitFor();

    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await expectStep(drawer, 'Info');

    // Country starts as the one country the shop ships to.
    expect(await drawer.getByLabel('Country', { exact: true }).inputValue()).toBe('US');
    expect(await drawer.getByLabel('Country', { exact: true }).locator('option:checked').textContent()).toBe(
      'United States',
    );
    // Every field missing (Country's "Choose…" too), then some.
    await fillInfo(drawer, { country: '' });
    await continueToPayment(drawer);
    await expectAlert(drawer, ALL_MISSING);
    expect(await drawer.getByLabel('First Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await fillInfo(drawer, { firstName: 'Maya', email: 'maya@example.com', city: 'San Francisco' });
    await continueToPayment(drawer);
    await expectAlert(
      drawer,
      'Please fill in all required fields: Last Name, Phone, Address, State, ZIP Code, Country',
    );

    // Email, phone and ZIP, in that order.
    await fillInfo(drawer, { ...SHOPPER, email: 'maya@example' });
    await continueToPayment(drawer);
    await expectAlert(drawer, 'Please enter a valid email address');
    await fillInfo(drawer, { email: SHOPPER.email, phone: '555-0134' });
    await continueToPayment(drawer);
    await expectAlert(drawer, 'Please enter a valid phone number (10 digits)');
    await fillInfo(drawer, { phone: SHOPPER.phone, zipCode: '9410' });
    await continueToPayment(drawer);
    await expectAlert(drawer, 'Please enter a valid ZIP code (5 digits or 5+4 format)');
    await fillInfo(drawer, { zipCode: '94105-1234' });

    // The optional Create Account block: at least 8 characters, matching.
    await drawer.getByLabel('Password', { exact: true }).fill('short');
    await continueToPayment(drawer);
    await expect.poll(() => drawer.getByText(CHECKOUT_MESSAGES.passwordLength).count()).toBe(1);
    await drawer.getByLabel('Password', { exact: true }).fill('long-enough-1');
    await drawer.getByLabel('Confirm Password', { exact: true }).fill('long-enough-2');
    await continueToPayment(drawer);
    await expect.poll(() => drawer.getByText(CHECKOUT_MESSAGES.passwordMatch).count()).toBe(1);
    await drawer.getByLabel('Password', { exact: true }).fill('');
    await drawer.getByLabel('Confirm Password', { exact: true }).fill('');

    // Valid: `<` and `>` are stripped.
    await fillInfo(drawer, { address: '220 <b>Mission</b> St' });
    await continueToPayment(drawer);
    await expectStep(drawer, 'Payment');
    await drawer.getByText('Secure Checkout', { exact: true }).waitFor();
    // The test shop is served over plain http: no claim of encryption, what holds instead.
    expect(await drawer.getByText('Encrypted end to end', { exact: false }).count()).toBe(0);
    await drawer.getByText("Card numbers are entered on Stripe's page", { exact: false }).waitFor();
    const crypto = drawer.getByRole('region', { name: 'Pay with crypto' });
    // On the local ledger crypto payments work (tests/e2e/crypto-checkout.spec.ts pays with them).
    await crypto.getByRole('button', { name: 'Pay with SOL' }).waitFor();
    expect(await crypto.getByRole('button', { name: 'Pay with SOL' }).isDisabled()).toBe(false);
    expect(await crypto.getByRole('button', { name: 'Pay with AELO' }).isDisabled()).toBe(false);
    await drawer.getByText('or', { exact: true }).waitFor();
    expect(await drawer.getByText('or', { exact: true }).innerText()).toBe('or');
    const card = drawer.getByRole('region', { name: 'Pay with card' });
    await expect.poll(() => card.getByRole('button', { name: 'Pay with Card' }).isEnabled()).toBe(true);
    expect(await card.getByTestId('total').textContent()).toBe(
      formatUsd(cartTotals([{ priceCents: product.priceCents, quantity: 1 }]).totalCents),
    );

    // Back: payment -> info (values kept, stripped) -> cart.
    await drawer.getByRole('button', { name: 'Back' }).click();
    await expectStep(drawer, 'Info');
    expect(await drawer.getByLabel('Address', { exact: true }).inputValue()).toBe('220 bMission/b St');
    expect(await drawer.getByLabel('ZIP Code', { exact: true }).inputValue()).toBe('94105-1234');
    await drawer.getByRole('button', { name: 'Back' }).click();
    await expectStep(drawer, 'Cart');

    // Typed details and the step survive a reload.
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await expectStep(drawer, 'Info');
    await fillInfo(drawer, { city: 'Oakland' });
    await page.reload();
    let again = await openCart(page);
    await expectStep(again, 'Info');
    expect(await again.getByLabel('City', { exact: true }).inputValue()).toBe('Oakland');

    // Payment needs valid info: a stored payment step with an invalid ZIP code opens on Info.
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('aelo-checkout') ?? '{}') as {
        state: { shippingInfo: Record<string, string> };
      };
      const state = {
        ...stored.state,
        step: 'payment',
        shippingInfo: { ...stored.state.shippingInfo, zipCode: '123' },
      };
      localStorage.setItem('aelo-checkout', JSON.stringify({ ...stored, state }));
    });
    await page.reload();
    again = await openCart(page);
    await expectStep(again, 'Info');
    expect(await again.getByLabel('ZIP Code', { exact: true }).inputValue()).toBe('123');

    // Emptying the cart ends the checkout.
    await again.getByRole('button', { name: 'Back' }).click();
    await again.getByRole('button', { name: `Remove ${product.title}` }).click();
    await again.getByText('Your cart is empty', { exact: true }).waitFor();
    await expectStep(again, 'Cart');
    expect(await again.getByRole('button', { name: 'Checkout' }).count()).toBe(0);
    await page
      .getByRole('banner')
      .getByRole('button', { name: 'Cart, 0 items' })
      .waitFor({ state: 'attached' });

    // Escape closes the drawer.
    await page.keyboard.press('Escape');
    await again.waitFor({ state: 'detached' });
  });

  it('charges $4.99 shipping below $50.00 and none from $50.00, caps quantities at stock, keeps the cart across a reload', async () => {
    const page = await shop.newPage({ width: 360, height: 740, isMobile: true });
    const cheap = pick(
      (p) => p.priceCents < 5000 && p.quantity >= 5 && p.priceCents * 5 >= 5000,
      'under $50.00 with 5 in stock',
    );
    const scarce = pick((p) => p.quantity >= 1 && p.quantity <= 3 && p.priceCents < 5000, 'low in stock');
    await seedCart(page, [{ product: cheap }]);
    const drawer = await openCart(page);
    // Full width on phones.
    expect((await drawer.boundingBox())?.width).toBe(360);

    const subtotal = () => drawer.getByTestId('subtotal').textContent();
    const shipping = () => drawer.getByTestId('shipping').textContent();
    const total = () => drawer.getByTestId('total').textContent();
    expect(await subtotal()).toBe(formatUsd(cheap.priceCents));
    expect(await shipping()).toBe('$4.99');
    expect(await total()).toBe(formatUsd(cheap.priceCents + 499));
    await drawer.getByText(/more for free shipping/).waitFor();

    const quantity = drawer.getByLabel(`Quantity of ${cheap.title}`);
    expect(await quantity.locator('option').allTextContents()).toEqual(['1', '2', '3', '4', '5']);
    const enough = Math.ceil(5000 / cheap.priceCents);
    await quantity.selectOption(String(enough));
    await expect.poll(shipping).toBe('Free');
    expect(await subtotal()).toBe(formatUsd(cheap.priceCents * enough));
    expect(await total()).toBe(formatUsd(cheap.priceCents * enough));
    expect(
      await drawer.getByRole('listitem', { name: cheap.title }).getByTestId('line-total').textContent(),
    ).toContain(formatUsd(cheap.priceCents * enough));

    // A line never goes above its stock.
    await page.keyboard.press('Escape');
    await seedCart(page, [
      { product: cheap, quantity: enough },
      { product: scarce, quantity: 5 },
    ]);
    const reopened = await openCart(page);
    const scarceQuantity = reopened.getByLabel(`Quantity of ${scarce.title}`);
    expect(await scarceQuantity.locator('option').count()).toBe(scarce.quantity);
    expect(await scarceQuantity.inputValue()).toBe(String(scarce.quantity));
    await reopened.getByText(`Only ${scarce.quantity} left`).waitFor();

    // Kept across a reload.
    await page.reload();
    const afterReload = await openCart(page);
    expect(await afterReload.getByLabel(`Quantity of ${cheap.title}`).inputValue()).toBe(String(enough));
    expect(await afterReload.getByLabel(`Quantity of ${scarce.title}`).inputValue()).toBe(
      String(scarce.quantity),
    );
    await page
      .getByRole('banner')
      .getByRole('button', { name: `Cart, ${enough + scarce.quantity} items` })
      .waitFor({ state: 'attached' });
  });

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
    const session = stripe!.lastSession()!;
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
    const reference = stripe!.lastSession()!.session.metadata.reference!;

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
    expect(stripe!.lastSession()!.session.metadata.reference).not.toBe(reference);
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

  it("prefills a signed-in customer's details and hides Create Account", async () => {
    const page = await shop.newPage();
    const email = newEmail('buyer');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/profile'));
    // Details saved in the account's settings (on the server: any device prefills from them).
    const saved = await page.request.put(shop.url('/api/account/settings'), {
      headers: { origin: shop.url('').replace(/\/$/, '') },
      data: { firstName: 'Ada', lastName: 'Okafor', phone: '4155550188', city: 'Portland' },
    });
    expect(saved.status()).toBe(200);

    const product = pick((p) => p.quantity >= 1, 'in stock');
    await page.goto('/');
    await seedCart(page, [{ product }]);
    const drawer = await openCart(page);
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await expectStep(drawer, 'Info');
    await expect.poll(() => drawer.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await expect.poll(() => drawer.getByLabel('First Name', { exact: true }).inputValue()).toBe('Ada');
    expect(await drawer.getByLabel('City', { exact: true }).inputValue()).toBe('Portland');
    expect(await drawer.getByLabel('Address', { exact: true }).inputValue()).toBe('');
    expect(await drawer.getByLabel('Password', { exact: true }).count()).toBe(0);
  });

  it('says card payments are not configured and disables the button when the server has no Stripe keys', async () => {
    const page = await shop.newPage();
    // Another method (crypto) works, so the checkout is open but the card is not.
    await page.route('**/api/checkout/config', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ card: { enabled: false }, crypto: { enabled: true }, reservationMinutes: 5 }),
      }),
    );
    const product = pick((p) => p.quantity >= 1, 'in stock');
    await seedCart(page, [{ product }]);
    const drawer = await openCart(page);
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await fillInfo(drawer, SHOPPER);
    await continueToPayment(drawer);
    await drawer.getByText('Card payments are not configured', { exact: true }).waitFor();
    expect(await drawer.getByRole('button', { name: 'Pay with Card' }).isDisabled()).toBe(true);
  });

  it('says in the cart, before any address, that checkout is closed when no payment method works', async () => {
    const page = await shop.newPage();
    await page.route('**/api/checkout/config', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ card: { enabled: false }, crypto: { enabled: false }, reservationMinutes: 5 }),
      }),
    );
    const product = pick((p) => p.quantity >= 1, 'in stock');
    await seedCart(page, [{ product }]);
    const drawer = await openCart(page);
    await drawer.getByText(/^Checkout is closed for the moment/).waitFor();
    expect(await drawer.getByRole('button', { name: 'Checkout' }).isDisabled()).toBe(true);
    expect(await drawer.getByLabel('Address', { exact: true }).count()).toBe(0);
  });

  it('shows the items and the ship-to address on the payment step for review', async () => {
    const page = await shop.newPage();
    const product = pick((p) => p.quantity >= 1, 'in stock');
    await seedCart(page, [{ product }]);
    const drawer = await openCart(page);
    await drawer.getByRole('button', { name: 'Checkout' }).click();
    await fillInfo(drawer, SHOPPER);
    await continueToPayment(drawer);
    const review = drawer.getByRole('region', { name: 'Review your order' });
    await review.waitFor();
    const text = (await review.textContent()) ?? '';
    expect(text).toContain(product.title);
    expect(text).toContain('Qty 1');
    expect(text).toContain(formatUsd(product.priceCents));
    expect(text).toContain(`${SHOPPER.firstName} ${SHOPPER.lastName}`);
    expect(text).toContain(SHOPPER.address);
    expect(text).toContain(`${SHOPPER.city}, California ${SHOPPER.zipCode}`);
  });
});
