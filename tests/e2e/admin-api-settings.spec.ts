/**
 * The settings screen's Stripe keys on the built app (issue 40, "API settings an owner can trust"),
 * at 360 and 1280 px, against the Stripe stand-in: a key of the wrong shape is refused as it is
 * typed, a key Stripe refuses says so with Stripe's reason, a key Stripe knows is saved with the
 * spec's 'Configuration updated successfully', a live publishable key beside a test secret key is
 * refused at once, and a saved key is removed after a confirmation. No key is ever on the page.
 */
import { randomBytes } from 'node:crypto';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STRIPE_KEY_MESSAGES } from '#common/schemas/admin-settings';
import { startFakeStripe, type FakeStripeServer } from '../fakes/stripe-server';
import { axeViolations } from '../helpers/axe';
import { describeBrowser, useBrowserSuite, type ShopServerOptions } from '../helpers/browser';
import { signInAsAdmin } from '../helpers/browser-auth';

async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** 24 letters and digits, ending in `last4`. */
const body = (last4: string) => `${randomBytes(16).toString('hex').replace(/\d/g, 'q').slice(0, 20)}${last4}`;

describeBrowser('admin API settings: Stripe keys', () => {
  const serverOptions: ShopServerOptions = {};
  let fake: FakeStripeServer;
  beforeAll(async () => {
    fake = await startFakeStripe();
    serverOptions.env = { STRIPE_API_URL: fake.url };
  });
  afterAll(async () => {
    await fake?.close();
  });
  const shop = useBrowserSuite(serverOptions);

  it.each([360, 1280])('checks, saves and removes a Stripe secret key at %i px', async (width) => {
    shop.allowConsoleErrors(/status of 400/, /status of 503/);
    const page = await shop.newPage({ width, isMobile: width < 640 });
    await signInAsAdmin(page, shop.server, '/admin/settings');
    const form = page.getByRole('form', { name: 'Stripe secret key' });
    const input = form.getByLabel('New value');
    const update = form.getByRole('button', { name: 'Update' });

    // The wrong shape: said as soon as the field is left, and Update sends nothing.
    const asked = fake.requests.length;
    await input.fill('sk_test_tooShort');
    await input.blur();
    await form.getByText(STRIPE_KEY_MESSAGES.secretShape).waitFor();
    await update.click();
    expect(fake.requests.length).toBe(asked);

    // A key Stripe does not know: Stripe's reason, and nothing saved.
    const refused = `sk_test_${body('1234')}`;
    await input.fill(refused);
    await update.click();
    await form
      .getByText('The Stripe secret key was refused by Stripe: Invalid API Key provided: sk_test_****1234')
      .waitFor();
    expect(await textOf(form.locator('dd').first())).toBe('Not set');

    // A key Stripe knows: saved, with the spec's text, shown masked only.
    const good = `sk_test_${body('4242')}`;
    fake.acceptSecretKey(good);
    await input.fill(good);
    await update.click();
    expect(await textOf(form.getByRole('status'))).toBe('Configuration updated successfully');
    expect(await textOf(form.locator('dd').first())).toMatch(/^•+4242$/);
    expect(await input.inputValue()).toBe('');

    // A live publishable key beside the test secret key: refused as typed.
    const publishable = page.getByRole('form', { name: 'Stripe publishable key' });
    const pkInput = publishable.getByLabel('New value');
    await pkInput.fill(`pk_live_${body('9999')}`);
    await pkInput.blur();
    await publishable
      .getByText(
        'This is a live key, but the Stripe secret key in use is a test key: use test keys together or live keys together',
      )
      .waitFor();
    // Field errors, hints and Remove: no serious or critical accessibility violation.
    expect(await axeViolations(page)).toEqual([]);

    // Remove, after a confirmation: back to not set (no key in this server's environment).
    await form.getByRole('button', { name: 'Remove the saved Stripe secret key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the Stripe secret key?' });
    await dialog.getByText('card payments are not configured until a new key is saved').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    expect(await textOf(form.getByRole('status'))).toBe('Configuration removed');
    expect(await textOf(form.locator('dd').first())).toBe('Not set');
    await dialog.waitFor({ state: 'hidden' });

    const html = await page.content();
    expect(html).not.toContain(good);
    expect(html).not.toContain(refused);
    const apiBody = await page.evaluate(async () => (await fetch('/api/admin/settings')).text());
    expect(apiBody).not.toContain(good.slice(8));
  });
});
