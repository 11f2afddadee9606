/**
 * The admin's Outbox with SMTP (issue 41): a mail server that refuses every recipient turns the
 * shop's mail into dead letters (MAIL_MAX_ATTEMPTS=1 here, so the first refusal is the last). The
 * admin sees the count beside the Outbox link, filters the failed mails, reads a mail's attempts and
 * last error (not its body), and sends it again once the server accepts: it arrives over SMTP and
 * shows as Sent. At 1280 and 360 px. With SCREENSHOTS_DIR set it saves the failed mail and the list.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeSmtp, type FakeSmtpServer } from '../fakes/smtp-server';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { signInAsAdmin, signUpCustomer } from '../helpers/browser-auth';

const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR;

async function screenshot(page: Page, name: string, width: number): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: path.join(SCREENSHOTS_DIR, `${name}-${width}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

describeBrowser('admin outbox (SMTP): failed mail and Send again', () => {
  let smtp: FakeSmtpServer;
  // Filled before the suite's server starts (hooks run in the order they are registered).
  const env: Record<string, string> = {};
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    smtp.refuse('Mailbox unavailable');
    Object.assign(env, { SMTP_URL: smtp.url, MAIL_MAX_ATTEMPTS: '1', MAIL_SEND_INTERVAL_MS: '200' });
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const shop = useBrowserSuite({ env });

  for (const width of [1280, 360]) {
    it(`lists a failed mail with its error and sends it again, at ${width} px`, async () => {
      smtp.refuse('Mailbox unavailable');
      const shopper = await shop.newPage({ width });
      const email = await signUpCustomer(shopper, shop.server, `smtp${width}`);

      const page = await shop.newPage({ width, isMobile: width < 400 });
      await signInAsAdmin(page, shop.server, '/admin');
      // The sender tries the mail within a moment and the server refuses it: one more failed mail.
      const failedMails = () =>
        page.evaluate(async () => {
          const res = await fetch('/api/admin/outbox-counts');
          return ((await res.json()) as { failed: number }).failed;
        });
      await expect.poll(failedMails, { timeout: 15_000 }).toBeGreaterThan(0);
      await page.reload();
      if (width < 1024) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('button', { name: 'Communication' }).click();
      }
      const link = page.getByRole('link', { name: /^Outbox/ });
      await expect.poll(async () => link.textContent()).toMatch(/^Outbox\d+ failed$/);
      await link.click();
      await page.waitForURL((url) => url.pathname === '/admin/outbox');
      await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
      await page.getByText('Every mail the shop sends by SMTP.', { exact: false }).waitFor();

      const mails = page.getByRole('region', { name: 'Mails' });
      await mails.getByRole('button', { name: /^Failed \(\d+\)$/ }).click();
      await page.waitForURL((url) => url.searchParams.get('status') === 'failed');
      const item = mails
        .getByRole('button')
        .filter({ hasText: `To ${email}` })
        .first();
      await item.waitFor();
      expect(await item.textContent()).toMatch(/Confirm your email address/);
      expect(await item.textContent()).toMatch(/Failed1 attempt · .*550 Mailbox unavailable/);
      await screenshot(page, 'outbox-smtp-failed-list', width);
      await item.click();

      const mail = page.getByRole('article', { name: 'Mail' });
      await mail.getByText(email).waitFor();
      await mail.getByText(/550 Mailbox unavailable/).waitFor();
      await mail.getByText('Mail is sent by SMTP, so its text is not shown here', { exact: false }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'outbox-smtp-failed-mail', width);

      smtp.refuse(null);
      await mail.getByRole('button', { name: 'Send again' }).click();
      await mail.getByText('Queued again: the shop sends it in a moment.').waitFor();
      const arrived = await smtp.mailsTo(email, 15_000);
      expect(arrived.map((m) => m.subject)).toContain('Confirm your email address');

      await page.reload();
      await page.getByRole('article', { name: 'Mail' }).getByText('Sent', { exact: true }).waitFor();
      await screenshot(page, 'outbox-smtp-sent', width);
    });
  }
});
