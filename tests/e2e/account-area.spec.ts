/**
 * The account area in Chromium: support tickets (the spec's form rules and messages, the admin's
 * Mark Read reaching the customer's list live), settings (view and edit, each validation message,
 * saved on the server), and Wallet & Rewards.
 */
import { expect, it } from 'vitest';
import { SETTINGS_TEXTS } from '#common/schemas/account-settings';
import { EMAIL_CHANGE_TEXTS, SESSION_TEXTS } from '#common/schemas/auth';
import { TICKET_TEXTS } from '#common/schemas/tickets';
import { outboxLink } from '../helpers/outbox';
import { mapWithConcurrency } from '#server/lib/concurrency';
import { axeViolations } from '../helpers/axe';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { CUSTOMER_PASSWORD, signInAsAdmin, signUpCustomer } from '../helpers/browser-auth';

describeBrowser('account area', () => {
  const shop = useBrowserSuite();

  it('draws an account page without moving it: the confirm-your-email banner comes with the page', async () => {
    const page = await shop.newPage();
    await signUpCustomer(page, shop.server, 'account');
    // Every layout shift of the next load, and an email status that takes its time to arrive.
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!entry.hadRecentInput) w.shifts += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.route('**/api/auth/email-verification', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.goto('/profile/settings');
    await page.getByRole('status').filter({ hasText: 'Confirm your email address' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.01);
  });

  it("creates a support ticket and sees the admin's Mark Read and Archive live", async () => {
    const page = await shop.newPage();
    await signUpCustomer(page, shop.server, 'account');
    await page.goto('/profile/messages');
    await page.getByText(TICKET_TEXTS.empty).waitFor();

    const submit = page.getByRole('button', { name: 'Submit Ticket' });
    const subject = page.getByLabel('Subject');
    const description = page.getByLabel('Description');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByText('2000 characters remaining').waitFor();
    await subject.fill('   ');
    await description.fill('   ');
    expect(await submit.isDisabled()).toBe(true);
    await subject.fill('Sizing on the <b>Harbor</b> jacket');
    expect(await submit.isDisabled()).toBe(true);
    await description.fill('Does it run small?');
    await page.getByText(`${2000 - 'Does it run small?'.length} characters remaining`).waitFor();
    expect(await subject.getAttribute('maxlength')).toBe('100');
    expect(await description.getAttribute('maxlength')).toBe('2000');
    await page.getByLabel('Category').selectOption('product');
    await submit.click();
    await page.getByText(TICKET_TEXTS.created).waitFor();
    expect(await subject.inputValue()).toBe('');

    const ticket = page.getByRole('listitem', { name: 'Sizing on the <b>Harbor</b> jacket' });
    await ticket.waitFor();
    // Shown as typed, never as HTML; new tickets are highlighted as unread.
    expect(await ticket.locator('b').count()).toBe(0);
    expect(await ticket.getAttribute('data-status')).toBe('unread');
    expect(await ticket.textContent()).toContain('Product Question');
    expect(await ticket.textContent()).toContain('Normal priority');

    const admin = await shop.newPage();
    await signInAsAdmin(admin, shop.server, '/admin/messages');
    const card = admin.getByRole('article', { name: 'Sizing on the <b>Harbor</b> jacket' });
    await card.getByRole('button', { name: 'Mark Read' }).click();
    await page.locator('li[data-status="read"]').filter({ hasText: 'Harbor' }).waitFor();
    await card.getByRole('button', { name: 'Archive' }).click();
    await page.locator('li[data-status="archived"]').filter({ hasText: 'Harbor' }).waitFor();

    // The session ends (signed out elsewhere): the spec's message, nothing sent.
    shop.allowConsoleErrors(/status of 401/);
    await page.context().clearCookies();
    await subject.fill('After sign-out');
    await description.fill('Should not be sent');
    await submit.click();
    await page.getByText(TICKET_TEXTS.loginToSend).waitFor();
  });

  it('edits settings with each validation message, saves them to the account and signs other devices out', async () => {
    const page = await shop.newPage();
    const email = await signUpCustomer(page, shop.server, 'account');
    await page.goto('/profile/settings');
    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByText(email).waitFor();

    // Edit, then Cancel discards.
    await profile.getByRole('button', { name: 'Edit' }).click();
    expect(await profile.getByLabel('Email', { exact: true }).getAttribute('readonly')).not.toBeNull();
    await profile.getByLabel('First Name').fill('Discarded');
    await profile.getByRole('button', { name: 'Cancel' }).click();
    expect(await profile.textContent()).not.toContain('Discarded');

    await profile.getByRole('button', { name: 'Edit' }).click();
    await profile.getByLabel('First Name').fill('Maya');
    await profile.getByLabel('Last Name').fill('Lindqvist');
    await profile.getByLabel('Phone', { exact: true }).fill('555-0134');
    await profile.getByLabel('ZIP Code').fill('9410');
    await profile.getByRole('button', { name: 'Save' }).click();
    await profile.getByText(SETTINGS_TEXTS.phone).waitFor();
    await profile.getByText(SETTINGS_TEXTS.zip).waitFor();
    await profile.getByLabel('Phone', { exact: true }).fill('(415) 555-0134');
    await profile.getByLabel('ZIP Code').fill('94105-1234');
    await profile.getByLabel('Address').fill('220 Mission St');
    await profile.getByLabel('City').fill('San Francisco');
    await profile.getByLabel('State').selectOption('CA');
    await profile.getByLabel('SMS notifications').check();
    await profile.getByLabel('Marketing emails').uncheck();
    await profile.getByRole('button', { name: 'Save' }).click();
    await profile.getByText(SETTINGS_TEXTS.saved).waitFor();
    expect(await profile.getByRole('button', { name: 'Save' }).count()).toBe(0);
    const text = await profile.textContent();
    for (const shown of [
      'Maya',
      'California',
      '94105-1234',
      'SMS notifications: On',
      'Marketing emails: Off',
    ]) {
      expect(text).toContain(shown);
    }

    // Saved on the server: another device signed in to the account sees them.
    const other = await shop.newPage();
    await other.goto('/login');
    await other.getByLabel('Email', { exact: true }).fill(email);
    await other.getByLabel('Password', { exact: true }).fill(CUSTOMER_PASSWORD);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await other.waitForURL((url) => url.pathname.startsWith('/profile'));
    await other.goto('/profile/settings');
    await other.getByRole('region', { name: 'Profile' }).getByText('San Francisco').waitFor();

    // The first device lists both and signs the other out.
    await page.reload();
    const devices = page.getByRole('list', { name: 'Devices' });
    await expect.poll(() => devices.getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: 'Sign out other devices' }).click();
    await page.getByText(SESSION_TEXTS.othersSignedOut).waitFor();
    await expect.poll(() => devices.getByRole('listitem').count()).toBe(1);
    await other.goto('/profile/settings');
    await other.waitForURL((url) => url.pathname === '/login');
  });

  it('changes the email only after the new address confirms it from the mailed link', async () => {
    shop.allowConsoleErrors(/status of 400/);
    const page = await shop.newPage();
    const email = await signUpCustomer(page, shop.server, 'account');
    const next = `moved-${Date.now().toString(36)}@example.com`;
    await page.goto('/profile/settings');
    const card = page.getByRole('region', { name: 'Email address' });
    await card.getByText(email).waitFor();
    await card.getByRole('button', { name: 'Change email' }).click();
    await card.getByLabel('New email').fill(next);
    await card.getByLabel('Password').fill('wrong-password-1');
    await card.getByRole('button', { name: 'Send confirmation link' }).click();
    await card.getByText('Invalid password').waitFor();
    await card.getByLabel('Password').fill(CUSTOMER_PASSWORD);
    await card.getByRole('button', { name: 'Send confirmation link' }).click();
    await card.getByText(EMAIL_CHANGE_TEXTS.sent).waitFor();
    expect(await card.textContent()).toContain(email);

    const link = await outboxLink(shop.server.dataDir, next, /https?:\/\/[^\s"<]+\/confirm-email\?[^\s"<]+/);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Email changed' }).waitFor();
    await page.getByRole('link', { name: 'Go to your settings' }).click();
    await card.getByText(next).waitFor();
    expect(await card.textContent()).toContain('Confirmed');
  });

  it('has no serious or critical axe violation on any account page, on a phone and a desktop', async () => {
    const found: string[] = [];
    // A phone and a desktop side by side, each its own shopper.
    await mapWithConcurrency([360, 1280], 2, async (width) => {
      const page = await shop.newPage({ width, height: 900 });
      await signUpCustomer(page, shop.server, 'account');
      for (const path of ['/profile/orders', '/profile/messages', '/profile/wallet', '/profile/settings']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        for (const violation of await axeViolations(page)) found.push(`${path} @${width}px: ${violation}`);
      }
      await page.close();
    });
    expect(found.sort()).toEqual([]);
  });
});
