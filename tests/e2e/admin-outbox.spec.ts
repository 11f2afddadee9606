/**
 * The admin's Outbox (issue 40, local mail: the shop has no SMTP_URL). A shopper asks for a
 * password reset on /forgot-password and is told the mail is in the admin's Outbox; the admin
 * finds the Outbox in the side navigation, opens the mail and its reset link is a real link. At
 * 360 px the list and the open mail take the page in turn.
 */
import { expect, it } from 'vitest';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { signInAsAdmin, signUpCustomer } from '../helpers/browser-auth';

describeBrowser('admin outbox (local mail)', () => {
  const shop = useBrowserSuite();

  for (const width of [1280, 360]) {
    it(`shows a mail just sent, with its link, at ${width} px`, async () => {
      const shopper = await shop.newPage({ width, isMobile: width < 400 });
      const email = await signUpCustomer(shopper, shop.server, `outbox${width}`);
      await shopper.context().clearCookies();
      await shopper.goto('/forgot-password');
      await shopper.getByLabel('Email').fill(email);
      await shopper.getByRole('button', { name: 'Email me a reset link' }).click();
      await shopper.getByText("In local mode, mail is in the admin's Outbox").waitFor();

      const page = await shop.newPage({ width, isMobile: width < 400 });
      await signInAsAdmin(page, shop.server, '/admin');
      if (width < 1024) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('button', { name: 'Communication' }).click();
      }
      await page.getByRole('link', { name: 'Outbox' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/outbox');
      await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();

      const mails = page.getByRole('region', { name: 'Mails' });
      const item = mails
        .getByRole('button')
        .filter({ hasText: `To ${email}` })
        .first();
      await item.waitFor();
      await item.click();
      await page.waitForURL((url) => url.searchParams.has('mail'));

      const mail = page.getByRole('article', { name: 'Mail' });
      await mail.getByText(email).waitFor();
      const link = mail.locator('a[href*="reset-password"]').first();
      await link.waitFor();
      const href = await link.getAttribute('href');
      expect(href).toContain(shop.server.baseUrl);
      expect(href).toMatch(/token=/);
      expect(await link.getAttribute('target')).toBe('_blank');

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      if (width < 1024) {
        expect(await mails.isVisible()).toBe(false);
        await mail.getByRole('button', { name: 'All mail' }).click();
        await mails.waitFor();
      }
    });
  }
});
