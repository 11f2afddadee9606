/**
 * Two-factor sign-in in Chromium: a customer turns it on in Settings (password, the key the page
 * shows, a first code made here with otplib), signs out, and signs in again with a code.
 */
import { readFile } from 'node:fs/promises';
import { generate } from 'otplib';
import { expect, it } from 'vitest';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';

describeBrowser('two-factor sign-in', () => {
  const shop = useBrowserSuite();

  it('turns on in Settings and asks for a code at the next sign-in', async () => {
    const email = `otp-${Date.now().toString(36)}@example.com`;
    const password = 'granite-meadow-19';
    const page = await shop.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/profile'));

    await page.goto('/profile/settings');
    const section = page.getByRole('region', { name: 'Two-factor authentication' });
    await section.getByText('Off', { exact: true }).waitFor();
    await section.getByRole('button', { name: 'Enable' }).click();
    await section.getByLabel('Your password').fill(password);
    await section.getByRole('button', { name: 'Continue' }).click();
    await section.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const codes = await section
      .getByRole('list', { name: 'Backup codes' })
      .getByRole('listitem')
      .allTextContents();
    expect(codes.length).toBeGreaterThanOrEqual(8);
    // Kept in one step: downloaded as a text file with every code, or copied.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('aelo-backup-codes.txt');
    const saved = await readFile(await download.path(), 'utf8');
    for (const code of codes) expect(saved).toContain(code.trim());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await section.getByRole('button', { name: 'Copy codes' }).click();
    await section.getByRole('button', { name: 'Copied!' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    for (const code of codes) expect(copied).toContain(code.trim());
    const secret = (await section.getByTestId('totp-secret').textContent())!.trim();
    // A wrong code first: refused (the browser logs the 400).
    shop.allowConsoleErrors(/400/);
    await section.getByLabel('Authentication code').fill('000000');
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByRole('alert').waitFor();
    await section.getByLabel('Authentication code').fill(await generate({ secret }));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByText('Two-factor authentication is on.').waitFor();
    await section.getByText('On', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    // Signed out once the header offers Login (the shop leaves the account pages, then ends the session).
    await page.getByRole('banner').getByRole('link', { name: 'Login', exact: true }).waitFor();
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    // The next period's code (the one above may already have been used).
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/profile'));
  });
});
