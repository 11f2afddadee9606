/**
 * Cart and checkout journeys on a few products seeded through the admin API, against the real
 * built server and the local Stripe stand-in (tests/fakes/stripe-server.ts, whose webhook target is
 * the server's /api/webhooks/stripe): the cart drawer's steps with every validation message,
 * shipping below and above $50.00, quantities capped by stock, the cart kept across a reload, a
 * signed-in customer's details, the order reviewed before paying, and the card block and the cart
 * when no payment method works. Paying by card and the /success page: checkout-card.spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { cartTotals, formatUsd } from '#common/money';
import { CHECKOUT_MESSAGES } from '#common/schemas/checkout';
import { describeBrowser } from '../helpers/browser';
import {
  continueToPayment,
  currentStep,
  expectAlert,
  expectStep,
  fillInfo,
  openCart,
  seedCart,
  SHOPPER,
  useCheckoutSuite,
} from '../helpers/browser-checkout';

const ALL_MISSING =
  'Please fill in all required fields: First Name, Last Name, Email, Phone, Address, City, State, ZIP Code, Country';

function newEmail(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

describeBrowser('cart and checkout', () => {
  const { shop, pick } = useCheckoutSuite();

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
