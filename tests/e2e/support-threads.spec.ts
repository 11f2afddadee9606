/**
 * Support that goes both ways (issue 40), at 1280 and 360 px: a customer opens a ticket (the spec's
 * success text), the admin answers it from Messages, the customer sees the answer under the ticket
 * without a reload (live), follows up, and the admin sees the ticket unread again, live. A guest
 * writes with the contact form and the admin finds it in the same inbox with the guest's email.
 * With SCREENSHOTS_DIR set it saves the admin's thread, the customer's thread and the contact form.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { CONTACT_TEXTS } from '#common/schemas/contact';
import { SUPPORT_TEXTS } from '#common/schemas/support-threads';
import { TICKET_TEXTS } from '#common/schemas/tickets';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { signInAsAdmin, signUpCustomer } from '../helpers/browser-auth';

const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR;

async function screenshot(target: Page | Locator, name: string, width: number): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}-${width}.png`);
  if ('goto' in target) {
    // From the top: a full-page shot of a scrolled page draws the fixed bar over its middle.
    await target.evaluate(() => window.scrollTo(0, 0));
    await target.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  } else await target.screenshot({ path: file, animations: 'disabled' });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describeBrowser('support threads', () => {
  const shop = useBrowserSuite();

  for (const width of [1280, 360]) {
    const isMobile = width < 400;

    it(`answers a ticket in the app and the customer follows up, live both ways, at ${width} px`, async () => {
      const subject = `Sizing of the Harbor tights ${width}`;
      const customer = await shop.newPage({ width, isMobile });
      await signUpCustomer(customer, shop.server, `thread${width}`);
      await customer.goto('/profile/messages');
      await customer.getByText(TICKET_TEXTS.empty).waitFor();
      await customer.getByLabel('Subject').fill(subject);
      await customer.getByLabel('Description').fill('Do they run small?');
      await customer.getByRole('button', { name: 'Submit Ticket' }).click();
      await customer.getByText(TICKET_TEXTS.created).waitFor();
      const ticket = customer.getByRole('listitem', { name: subject });
      await ticket.waitFor();

      const admin = await shop.newPage({ width, isMobile });
      await signInAsAdmin(admin, shop.server, '/admin/messages');
      const card = admin.getByRole('article', { name: subject });
      await card.waitFor();
      // The spec's Reply mail link stays beside the in-app answer.
      expect(await card.locator('a[href^="mailto:"]').count()).toBe(1);
      await card.getByRole('button', { name: 'Answer here' }).click();
      await card.getByText('No replies yet.').waitFor();
      const send = card.getByRole('button', { name: 'Send reply' });
      expect(await send.isDisabled()).toBe(true);
      await card.getByLabel('Your reply').fill('They run true to size: take your usual S.');
      await send.click();
      await card.getByText(SUPPORT_TEXTS.replySent, { exact: false }).waitFor();
      await card.getByText('They run true to size: take your usual S.').waitFor();
      // A reply marks it read.
      await card.getByRole('button', { name: 'Archive' }).waitFor();
      expect(await card.getByText('Unread', { exact: true }).count()).toBe(0);
      await noSidewaysScroll(admin);
      await screenshot(card, 'support-admin-thread', width);

      // The customer sees the answer under the ticket without a reload.
      await ticket.getByText('They run true to size: take your usual S.').waitFor();
      await ticket.getByText('Aelo Support').waitFor();
      expect(await ticket.getAttribute('data-status')).toBe('read');

      await ticket.getByRole('button', { name: 'Reply' }).click();
      await ticket.getByLabel('Your reply').fill('Thanks! And the matching bra?');
      await ticket.getByRole('button', { name: 'Send reply' }).click();
      await ticket.getByText(SUPPORT_TEXTS.followUpSent).waitFor();
      await ticket.getByText('Thanks! And the matching bra?').waitFor();
      await noSidewaysScroll(customer);
      await screenshot(ticket, 'support-customer-thread', width);

      // The follow-up marks it unread for the admin, live.
      await card.getByText('Unread', { exact: true }).waitFor();
      await card.getByRole('button', { name: 'Mark Read' }).waitFor();
      await card.getByText('Thanks! And the matching bra?').waitFor();
    });

    it(`takes a guest's message from the contact form into the admin's inbox at ${width} px`, async () => {
      const email = `guest-${width}-${Date.now().toString(36)}@example.com`;
      const guest = await shop.newPage({ width, isMobile });
      await guest.goto('/');
      await guest.getByRole('contentinfo').getByRole('link', { name: 'Contact', exact: true }).click();
      await guest.waitForURL((url) => url.pathname === '/contact');
      await guest.getByRole('heading', { level: 1, name: CONTACT_TEXTS.title }).waitFor();
      await guest.getByRole('button', { name: 'Send message' }).click();
      await guest.getByText(CONTACT_TEXTS.nameRequired).first().waitFor();
      await guest.getByLabel('Name').fill(`Robin ${width}`);
      await guest.getByLabel('Email').fill(email);
      await guest.getByRole('textbox', { name: 'Message' }).fill('Do you ship to Alaska?');
      await guest.getByText(`${2000 - 'Do you ship to Alaska?'.length} characters remaining`).waitFor();
      await noSidewaysScroll(guest);
      await screenshot(guest, 'support-contact-form', width);
      await guest.getByRole('button', { name: 'Send message' }).click();
      await guest.getByText(CONTACT_TEXTS.sent).waitFor();
      expect(await guest.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');

      const admin = await shop.newPage({ width, isMobile });
      await signInAsAdmin(admin, shop.server, '/admin/messages');
      const card = admin.getByRole('article', { name: `Contact form · Robin ${width}` });
      await card.waitFor();
      await card.getByText(email).waitFor();
      await card.getByText('Guest', { exact: true }).waitFor();
      expect(await card.getAttribute('class')).toContain('inset');
    });
  }
});
