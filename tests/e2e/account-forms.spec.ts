/**
 * The account area's forms before and without the code (issue 39): the support ticket form is a
 * route form whose action answers with or without JavaScript, and keeps what was typed before the
 * page was live; Sign Out ends the session on the server before any page shows the visitor signed
 * out, so a /login opened right after is the sign-in page.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { TICKET_TEXTS } from '#common/schemas/tickets';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { signUpCustomer } from '../helpers/browser-auth';

/** Holds the page's scripts back by `ms`, so the server's HTML is on screen without its code for that long. */
async function delayScripts(page: Page, ms: number): Promise<void> {
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

const isHydrated = (page: Page) =>
  page
    .locator('html[data-hydrated]')
    .count()
    .then((n) => n > 0);

describeBrowser('account forms', () => {
  const shop = useBrowserSuite();

  it('sends a support ticket without JavaScript, and answers a blank one with the validation message', async () => {
    const page = await shop.newPage({ javaScriptEnabled: false });
    await signUpCustomer(page, shop.server, 'nojs');
    await page.goto('/profile/messages');
    await page.getByText(TICKET_TEXTS.empty).waitFor();

    const submit = page.getByRole('button', { name: 'Submit Ticket' });
    const subject = page.getByRole('textbox', { name: 'Subject' });
    const description = page.getByRole('textbox', { name: 'Description' });
    // Enabled in the server's HTML (nothing could enable it again without the code); the fields are required.
    expect(await submit.isDisabled()).toBe(false);
    expect(await subject.getAttribute('required')).not.toBeNull();
    expect(await description.getAttribute('required')).not.toBeNull();
    await page.getByText('2000 characters remaining').waitFor();

    // Blank after trimming passes the browser's `required`: the server answers with the spec's
    // message (a 400, which the browser logs).
    shop.allowConsoleErrors(/status of 400/);
    await subject.fill('   ');
    await description.fill('  ');
    await submit.click();
    await page.getByRole('alert').filter({ hasText: TICKET_TEXTS.required }).waitFor();
    expect(await subject.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText(TICKET_TEXTS.empty).count()).toBe(1);

    await page.getByLabel('Category').selectOption('billing');
    await subject.fill('Invoice without JavaScript');
    await description.fill('Please send the invoice again.');
    await submit.click();
    await page.getByRole('status').filter({ hasText: TICKET_TEXTS.created }).waitFor();
    const ticket = page.getByRole('listitem', { name: 'Invoice without JavaScript' });
    await ticket.waitFor();
    expect(await ticket.textContent()).toContain('Billing');
    expect(await subject.inputValue()).toBe('');
    expect(await description.inputValue()).toBe('');
  });

  it('keeps a ticket typed before the page is live: the counter and Submit follow it, and it is sent', async () => {
    const page = await shop.newPage();
    await signUpCustomer(page, shop.server, 'early');
    await delayScripts(page, 2_500);
    // Not awaited: the helper's goto waits for the app, and this test types before it.
    const opened = page.goto('/profile/messages');
    const subject = page.getByRole('textbox', { name: 'Subject' });
    const description = page.getByRole('textbox', { name: 'Description' });
    await subject.fill('Typed before the code');
    await description.fill('Twelve chars');
    expect(await isHydrated(page)).toBe(false);
    await opened;

    expect(await subject.inputValue()).toBe('Typed before the code');
    expect(await description.inputValue()).toBe('Twelve chars');
    await page.getByText(`${2000 - 'Twelve chars'.length} characters remaining`).waitFor();
    const submit = page.getByRole('button', { name: 'Submit Ticket' });
    expect(await submit.isDisabled()).toBe(false);

    // Live: Submit follows the fields (blank after trimming disables it).
    await description.fill('   ');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByText(`${2000 - 3} characters remaining`).waitFor();
    await description.fill('Twelve chars');
    await submit.click();
    await page.getByText(TICKET_TEXTS.created).waitFor();
    await page.getByRole('listitem', { name: 'Typed before the code' }).waitFor();
    expect(await subject.inputValue()).toBe('');
    expect(await description.inputValue()).toBe('');
    await page.getByText('2000 characters remaining').waitFor();
    expect(await submit.isDisabled()).toBe(true);
  });

  it('answers a press on a blank ticket before the page is live with the validation message', async () => {
    const page = await shop.newPage();
    await signUpCustomer(page, shop.server, 'quick');
    await delayScripts(page, 2_500);
    const opened = page.goto('/profile/messages');
    await page.getByRole('textbox', { name: 'Subject' }).fill(' ');
    await page.getByRole('textbox', { name: 'Description' }).fill(' ');
    expect(await isHydrated(page)).toBe(false);
    shop.allowConsoleErrors(/status of 400/);
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await opened.catch(() => undefined);
    // The press was a plain form post: the server's page carries its answer.
    await page.getByRole('alert').filter({ hasText: TICKET_TEXTS.required }).waitFor();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    expect(await page.getByRole('alert').filter({ hasText: TICKET_TEXTS.required }).count()).toBe(1);
  });

  it('signs out on the server before showing /: a /login opened right after is the sign-in page', async () => {
    const page = await shop.newPage();
    await signUpCustomer(page, shop.server, 'leave');
    await page.goto('/profile/messages');
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await page.getByRole('complementary').getByRole('button', { name: 'Sign Out' }).click();
    // The header's Login link is the signed-out state: by then the session is gone on the server.
    const login = page.getByRole('banner').getByRole('link', { name: 'Login', exact: true });
    await login.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // In the app: the cached user is gone too.
    await login.click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    const account = await page.request.get('/profile/orders', { maxRedirects: 0 });
    expect(account.headers()['location']).toBe('/login');
  });

  it('signs out without JavaScript: a form post that lands on / signed out', async () => {
    const page = await shop.newPage({ javaScriptEnabled: false });
    await signUpCustomer(page, shop.server, 'nojs-leave');
    await page.goto('/profile/orders');
    await page.getByRole('complementary').getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('banner').getByRole('link', { name: 'Login', exact: true }).waitFor();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
