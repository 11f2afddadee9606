/**
 * The account area in Chromium: support tickets (the spec's form rules and messages, the admin's
 * Mark Read reaching the customer's list live), settings (view and edit, each validation message,
 * saved on the server), and Wallet & Rewards.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { TICKET_TEXTS } from '#common/schemas/tickets';
import { describeBrowser, useBrowserSuite, type BrowserSuite } from '../helpers/browser';

let counter = 0;

/** Signs a new customer up on /login; returns their email. */
async function signUp(page: Page): Promise<string> {
  const email = `account-${Date.now().toString(36)}-${counter++}@example.com`;
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('harbor-lights-71');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/profile/orders');
  return email;
}

async function signInAsAdmin(shop: BrowserSuite, page: Page): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Email', { exact: true }).fill(shop.server.admin.email);
  await page.getByLabel('Password', { exact: true }).fill(shop.server.admin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/admin/login');
}

describeBrowser('account area', () => {
  const shop = useBrowserSuite();

  it("creates a support ticket and sees the admin's Mark Read and Archive live", async () => {
    const page = await shop.newPage();
    await signUp(page);
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
    await signInAsAdmin(shop, admin);
    await admin.goto('/admin/messages');
    const card = admin.getByRole('article', { name: 'Sizing on the <b>Harbor</b> jacket' });
    await card.getByRole('button', { name: 'Mark Read' }).click();
    await page.locator('li[data-status="read"]').filter({ hasText: 'Harbor' }).waitFor();
    await card.getByRole('button', { name: 'Archive' }).click();
    await page.locator('li[data-status="archived"]').filter({ hasText: 'Harbor' }).waitFor();
  });
});
