/**
 * Admin back-office journeys on the real built server (issue 5): products with uploaded images
 * (add, edit, see it on the storefront, delete), API configurations shown masked, orders (status,
 * tracking number, delete), message triage, and the audit entries of all of these, live.
 *
 * Orders and messages are inserted straight into the server's database (an order exists only
 * once a payment is confirmed; messages come from the account area), which needs a PostgreSQL
 * both processes can reach: those journeys run when TEST_DATABASE_URL is set (CI), and print one
 * 'SKIPPED:' line otherwise. Everything else runs on the embedded database.
 */
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database } from '#server/db/client';
import { openTestDatabase } from '../helpers/test-app';
import { axeViolations } from '../helpers/axe';
import { createOrder } from '../factories/order';
import { describeBrowser, useBrowserSuite, type ShopServerOptions } from '../helpers/browser';
import { signInAsAdmin } from '../helpers/browser-auth';
import { seedProductsThroughAdmin } from '../helpers/browser-catalog';
import { createScratchDatabase, TEST_DATABASE_URL, type ScratchDatabase } from '../helpers/databases';

const hasPostgres = TEST_DATABASE_URL !== undefined;
const ADMIN_PAGES = [
  '/admin',
  '/admin/products',
  '/admin/products/add',
  '/admin/orders',
  '/admin/customers',
  '/admin/analytics',
  '/admin/audit',
  '/admin/airdrops',
  '/admin/messages',
  '/admin/settings',
] as const;
const CUSTOMER_PASSWORD = 'correct-horse-battery';

function tag(): string {
  return randomBytes(3).toString('hex');
}

/** A real PNG of the given colour (the server decodes and re-encodes every upload). */
async function pngBytes(color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 800, channels: 3, background: color } })
    .png()
    .toBuffer();
}

async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** The audit log filtered to one action and searched for `search`: the text of its table rows. */
async function auditRows(page: Page, action: string, search: string): Promise<string[]> {
  await page.goto('/admin/audit');
  await page.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
  await page.locator(`option[value="${action}"]`).waitFor({ state: 'attached' });
  await page.getByRole('combobox', { name: 'Action' }).selectOption(action);
  await page.getByRole('searchbox', { name: 'Search audit log' }).fill(search);
  const table = page.getByRole('table', { name: 'Audit log' });
  await page.waitForFunction(
    ([a, s]) => {
      const rows = [...document.querySelectorAll('table[aria-label="Audit log"] tbody tr')];
      return rows.length > 0 && rows.every((r) => r.textContent?.includes(a) && r.textContent.includes(s));
    },
    [action, search] as const,
  );
  return Promise.all((await table.locator('tbody tr').all()).map(textOf));
}

if (!hasPostgres) {
  console.warn(
    "SKIPPED: admin order and message journeys (TEST_DATABASE_URL is not set; they insert rows into the server's PostgreSQL)",
  );
}

describeBrowser('admin back office', () => {
  const serverOptions: ShopServerOptions = {};
  let scratch: ScratchDatabase | undefined;
  let database: Database | undefined;

  // Registered before the suite's own hooks: the database is made before the server starts and
  // dropped after it stopped (after-hooks run in reverse order).
  beforeAll(async () => {
    if (!hasPostgres) return;
    scratch = await createScratchDatabase('postgres');
    serverOptions.databaseUrl = scratch.url;
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  const shop = useBrowserSuite(serverOptions);

  beforeAll(async () => {
    // A few products of both genders, made through the admin API (no demo catalogue needed).
    await seedProductsThroughAdmin(shop.server, [
      { title: 'Align Legging', priceCents: 9_800 },
      { title: 'Define Jacket', category: 'womens-jackets', priceCents: 11_800 },
      { title: 'Energy Bra', category: 'womens-bras', priceCents: 4_800 },
      { title: 'Pace Breaker Short', gender: 'mens', category: 'mens-shorts', priceCents: 6_800 },
      { title: 'Metal Vent Tee', gender: 'mens', category: 'mens-tops', priceCents: 7_800 },
      { title: 'ABC Jogger', gender: 'mens', category: 'mens-pants', priceCents: 12_800 },
    ]);
    if (!scratch) return;
    database = await openTestDatabase(scratch, { poolSize: 2 });
  });

  function db() {
    if (!database) throw new Error('no database (TEST_DATABASE_URL is not set)');
    return database.db;
  }

  it('adds a product with two uploaded images, edits it (the storefront follows) and deletes it', async () => {
    const page = await shop.newPage();
    await signInAsAdmin(page, shop.server);
    const title = `E2E Trail Hoodie ${tag()}`;

    await page.getByRole('link', { name: 'Add Product' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/products/add');
    await page.getByRole('heading', { level: 1, name: 'Add New Product' }).waitFor();

    // The spec's checks, in the banner above the form.
    await page.getByRole('button', { name: 'Save Product' }).click();
    expect(await textOf(page.getByRole('alert'))).toBe('Please fill in all required fields');

    const fileInput = page.locator('input[type="file"]');
    expect(await fileInput.getAttribute('accept')).toContain('image/webp');
    await fileInput.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    expect(await textOf(page.getByRole('alert'))).toBe('Please upload an image file');
    await fileInput.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    expect(await textOf(page.getByRole('alert'))).toBe('File size must be less than 5MB');

    // Two real uploads, one at a time; then the second becomes the main image.
    await fileInput.setInputFiles({
      name: 'rose.png',
      mimeType: 'image/png',
      buffer: await pngBytes({ r: 225, g: 29, b: 72 }),
    });
    await page.getByText('1/4').waitFor();
    await fileInput.setInputFiles({
      name: 'stone.png',
      mimeType: 'image/png',
      buffer: await pngBytes({ r: 68, g: 64, b: 60 }),
    });
    await page.getByText('2/4').waitFor();
    const images = page.locator('form img');
    const [first, second] = await Promise.all([
      images.nth(0).getAttribute('src'),
      images.nth(1).getAttribute('src'),
    ]);
    expect(first).not.toBe(second);
    await page.getByRole('button', { name: 'Move image 2 left' }).click();
    expect(await images.nth(0).getAttribute('src')).toBe(second);
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await page
      .getByRole('textbox', { name: 'Description', exact: true })
      .fill('Condition: Like New. Brushed-back fleece.');
    await page.getByRole('spinbutton', { name: 'Price', exact: true }).fill('49.50');
    await page.getByRole('textbox', { name: 'Brand', exact: true }).fill('Northline Athletic');

    // Changing the gender resets the category.
    const category = page.getByRole('combobox', { name: 'Category', exact: true });
    expect(await category.inputValue()).toBe('womens-leggings');
    await page.getByRole('combobox', { name: 'Gender', exact: true }).selectOption('mens');
    expect(await category.inputValue()).toBe('mens-tops');
    await category.selectOption('mens-hoodies');
    await page.getByRole('spinbutton', { name: 'Quantity', exact: true }).fill('3');
    await page.getByRole('spinbutton', { name: 'Shipping Weight (lbs)', exact: true }).fill('1.2');

    await page.getByRole('button', { name: 'Save Product' }).click();
    expect(await textOf(page.getByRole('alert'))).toBe('Please select at least one size');
    await page.getByRole('button', { name: 'L', exact: true }).click();
    await page.getByRole('button', { name: 'S', exact: true }).click();
    expect(await page.getByRole('button', { name: 'S', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    await page.getByRole('button', { name: 'Save Product' }).click();
    expect(await textOf(page.getByRole('alert'))).toBe('Please add at least one color');
    const colorInput = page.getByRole('textbox', { name: 'Colors', exact: true });
    await colorInput.fill('   ');
    await page.getByRole('button', { name: 'Add Color' }).click();
    expect(await page.getByRole('list', { name: 'Colors added' }).getByRole('listitem').count()).toBe(0);
    await colorInput.fill('  Forest  ');
    await page.getByRole('button', { name: 'Add Color' }).click();
    await colorInput.fill('Black');
    await colorInput.press('Enter');
    await page.getByRole('button', { name: 'Remove color Black' }).click();
    expect(await textOf(page.getByRole('list', { name: 'Colors added' }))).toBe('Forest');

    await page.getByRole('button', { name: 'Save Product' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/products');

    // Listed, and on the public API with the server's prices.
    await page.getByRole('searchbox', { name: 'Search products' }).fill(title);
    const table = page.getByRole('table', { name: 'Products' });
    await table.getByText(title).waitFor();
    const row = table.locator('tbody tr', { hasText: title });
    expect(await textOf(row)).toContain('$49.50');
    expect(await textOf(row)).toContain('Forest');

    type Listed = { id: string; title: string; priceCents: number; images: unknown[]; sizes: string[] };
    const findListed = async (): Promise<Listed | undefined> => {
      const list = (await (await fetch(shop.url('/api/products?gender=mens'))).json()) as {
        products: Listed[];
      };
      return list.products.find((p) => p.title === title);
    };
    await expect.poll(findListed).toBeDefined();
    const created = await findListed();
    expect(created).toMatchObject({ priceCents: 4950, sizes: ['S', 'L'] });
    expect(created?.images).toHaveLength(2);
    const id = created!.id;

    // Edit: the form loads the product, saves, and the storefront shows the change.
    await row.getByRole('link', { name: `Edit ${title}` }).click();
    await page.waitForURL((url) => url.pathname === `/admin/products/edit/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit Product' }).waitFor();
    const titleInput = page.getByRole('textbox', { name: 'Title', exact: true });
    await titleInput.waitFor();
    expect(await titleInput.inputValue()).toBe(title);
    expect(await page.getByRole('spinbutton', { name: 'Price', exact: true }).inputValue()).toBe('49.50');
    const newTitle = `${title} v2`;
    await titleInput.fill(newTitle);
    await page.getByRole('spinbutton', { name: 'Price', exact: true }).fill('55');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/products');

    const updated = (await (await fetch(shop.url(`/api/products/${id}`))).json()) as {
      title: string;
      priceCents: number;
    };
    expect(updated).toMatchObject({ title: newTitle, priceCents: 5500 });
    const store = await shop.newPage();
    await store.goto(`/products/${id}`);
    await store.getByRole('dialog').getByRole('heading', { name: newTitle }).waitFor();
    // Closed before the delete: an open product page would refetch it and log the 404.
    await store.close();

    // Delete, after the accessible confirmation.
    await page.getByRole('searchbox', { name: 'Search products' }).fill(newTitle);
    await page.getByRole('button', { name: `Delete ${newTitle}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete product' });
    expect(await textOf(dialog)).toContain('Are you sure you want to delete this product?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Delete ${newTitle}` }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No products found matching your criteria.').waitFor();
    expect((await fetch(shop.url(`/api/products/${id}`))).status).toBe(404);

    // The audit log has all three.
    expect(await auditRows(page, 'create_product', title)).toHaveLength(1);
    expect((await auditRows(page, 'update_product', newTitle))[0]).toContain(`by ${shop.server.admin.email}`);
    expect(await auditRows(page, 'delete_product', newTitle)).toHaveLength(1);
  });

  it('warns the operator on the dashboard while shoppers have no way to pay, linking to Settings', async () => {
    // This server has no Stripe keys; crypto runs on its local ledger. A shop whose crypto is off as
    // well (a cluster without its accounts) is what the dashboard answers below.
    const config = (await (await fetch(shop.url('/api/checkout/config'))).json()) as {
      card: { enabled: boolean };
      crypto: { enabled: boolean };
    };
    expect(config.card.enabled).toBe(false);
    const page = await shop.newPage();
    await page.route('**/api/checkout/config', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ card: { enabled: false }, crypto: { enabled: false }, reservationMinutes: 5 }),
      }),
    );
    await signInAsAdmin(page, shop.server, '/admin');
    const warning = page.getByRole('alert').filter({ hasText: 'Shoppers cannot pay.' });
    await warning.waitFor();
    await warning.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/settings');
  });

  it('updates an API configuration, shows it masked only, and the audit log prepends the entry live', async () => {
    const page = await shop.newPage();
    await signInAsAdmin(page, shop.server);
    const audit = await shop.newPage();
    await signInAsAdmin(audit, shop.server, '/admin/audit');
    await audit.getByRole('heading', { level: 1, name: 'Audit Log' }).waitFor();
    await audit.locator('option[value="update_api_config"]').waitFor({ state: 'attached' });
    await audit.getByRole('combobox', { name: 'Action' }).selectOption('update_api_config');

    const secret = `carrier-secret-${tag()}-9876`;
    await page.goto('/admin/settings');
    const form = page.getByRole('form', { name: 'USPS consumer secret' });
    const input = form.getByLabel('New value');
    expect(await input.getAttribute('type')).toBe('password');
    await input.fill(secret);
    await form.getByRole('button', { name: 'Update' }).click();
    expect(await textOf(form.getByRole('status'))).toBe('Configuration updated successfully');
    expect(await input.inputValue()).toBe('');
    expect(await textOf(form.locator('dd').first())).toMatch(/^•+9876$/);
    expect(await page.content()).not.toContain(secret);

    await page.reload();
    await page
      .getByRole('form', { name: 'USPS consumer secret' })
      .getByText(/^•+9876$/)
      .waitFor();
    expect(await page.content()).not.toContain(secret);
    const apiBody = await page.evaluate(async () => (await fetch('/api/admin/settings')).text());
    expect(apiBody).not.toContain(secret);

    // The other tab saw the entry arrive without reloading.
    const row = audit.getByRole('table', { name: 'Audit log' }).locator('tbody tr').first();
    await audit.waitForFunction(() =>
      document
        .querySelector('table[aria-label="Audit log"] tbody tr')
        ?.textContent?.includes('carrier / client_secret'),
    );
    expect(await textOf(row)).toContain('Update API Config');
    expect(await textOf(row)).not.toContain(secret);
  });

  it.skipIf(!hasPostgres)('edits an order status and tracking number, and deletes an order', async () => {
    const email = `buyer-${tag()}@example.com`;
    // Order lines keep a product photo; use one the server really stored.
    const photo = await db().selectFrom('products').select('images').limit(1).executeTakeFirstOrThrow();
    const image = photo.images[0]!;
    const signature = `5VfYmGBjv${randomBytes(24).toString('hex')}`;
    const kept = await createOrder(db(), {
      email,
      firstName: 'Ava',
      lastName: 'Martinez',
      paymentMethod: 'sol',
      transactionSignature: signature,
      items: [{ title: 'Sculpt Legging', image, priceCents: 6800, quantity: 1 }],
    });
    const doomed = await createOrder(db(), {
      email,
      createdAt: new Date(Date.now() - 3_600_000),
      items: [{ image }],
    });

    const page = await shop.newPage();
    // The customer's row opens their orders: the orders screen searched by their email.
    await signInAsAdmin(page, shop.server, '/admin/customers');
    await page.getByRole('searchbox', { name: 'Search customers' }).fill(email);
    await page.getByRole('link', { name: /^2 orders by / }).click();
    await page.waitForURL((url) => url.pathname === '/admin/orders');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search orders' }).inputValue()).toBe(email);
    await page.getByRole('article', { name: `Order ${doomed.id.slice(0, 8)}` }).waitFor();

    const card = page.getByRole('article', { name: `Order ${kept.id.slice(0, 8)}` });
    await card.getByRole('button', { expanded: false }).click();
    expect(await textOf(card)).toContain('Ava Martinez');
    expect(await textOf(card)).toContain('$68.00');
    // On the demo ledger (this test shop) the shop's own explorer page, as the customers' links.
    const explorer = card.getByRole('link', { name: /view the transaction/ });
    expect(await explorer.getAttribute('href')).toBe(`/explorer/tx/${signature}`);

    await card.getByRole('button', { name: 'Edit', exact: true }).click();
    await card.getByLabel('Status').selectOption('shipped');
    await card.getByLabel('Tracking Number').fill('9400111899223817000042');
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Order updated successfully').waitFor();
    await card.getByText('9400111899223817000042').waitFor();
    // The whole number, linked to the carrier's tracking page.
    const tracking = card.getByRole('link', { name: /9400111899223817000042.*track with USPS/ });
    expect(await tracking.getAttribute('href')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223817000042',
    );
    const stored = await db()
      .selectFrom('orders')
      .select(['status', 'tracking_number'])
      .where('id', '=', kept.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'shipped', tracking_number: '9400111899223817000042' });

    const other = page.getByRole('article', { name: `Order ${doomed.id.slice(0, 8)}` });
    await other.getByRole('button', { expanded: false }).click();
    await other.getByRole('button', { name: 'Delete', exact: true }).click();
    expect(await textOf(other.getByRole('group', { name: 'Confirm deletion' }))).toContain(
      'Are you sure you want to delete this order? This action cannot be undone.',
    );
    await other.getByRole('button', { name: 'Delete Order' }).click();
    await page.getByText('Order deleted successfully').waitFor();
    await other.waitFor({ state: 'detached' });
    expect(
      await db().selectFrom('orders').select('id').where('id', '=', doomed.id).executeTakeFirst(),
    ).toBeUndefined();

    expect((await auditRows(page, 'update_order', kept.id.slice(0, 8)))[0]).toContain('pending → shipped');
    expect(await auditRows(page, 'delete_order', doomed.id.slice(0, 8))).toHaveLength(1);
  });

  it.skipIf(!hasPostgres)('triages a customer message: priority, Mark Read, Archive', async () => {
    const email = `writer-${tag()}@example.com`;
    const res = await fetch(shop.url('/api/auth/sign-up/email'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.server.baseUrl },
      body: JSON.stringify({ email, password: CUSTOMER_PASSWORD }),
    });
    expect(res.status).toBeLessThan(300);
    const user = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const subject = `Where is my order ${tag()}?`;
    const message = await db()
      .insertInto('messages')
      .values({
        user_id: user.id,
        subject,
        // A long unbroken word (a pasted link or id) wraps inside the card.
        content: `No tracking number yet. ${'order-reference-'.repeat(20)}`,
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const page = await shop.newPage();
    await signInAsAdmin(page, shop.server, '/admin/messages');
    await page.getByRole('searchbox', { name: 'Search messages' }).fill(subject);
    const card = page.getByRole('article', { name: subject });
    await card.waitFor();
    expect(await textOf(card)).toContain(email);
    expect(await textOf(card)).toContain('Unread');
    expect(await card.getByRole('link', { name: `Reply to ${email}` }).getAttribute('href')).toMatch(
      new RegExp(`^mailto:${email}`),
    );
    expect(await textOf(card.getByRole('link', { name: `Reply to ${email}` }))).toBe('Reply');
    expect(await card.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);

    const priority = card.getByLabel('Priority');
    // Saved: once the server has answered, the select shows its answer and takes input again (a
    // list refetch the search started may land meanwhile and show the old value for a moment).
    const saved = page.waitForResponse(
      (res) => res.url().endsWith('/priority') && res.request().method() === 'PATCH',
    );
    await priority.selectOption('high');
    expect((await saved).status()).toBe(200);
    await expect.poll(() => priority.inputValue()).toBe('high');
    await expect.poll(() => card.getByRole('combobox', { name: 'Priority' }).isEnabled()).toBe(true);
    await expect.poll(() => priority.inputValue()).toBe('high');
    await card.getByRole('button', { name: 'Mark Read' }).click();
    await card.getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => card.getByRole('button', { name: /Mark Read|Archive/ }).count()).toBe(0);
    expect(await card.getByText('Archived', { exact: true }).count()).toBeGreaterThan(0);

    const row = await db()
      .selectFrom('messages')
      .select(['status', 'priority'])
      .where('id', '=', message.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'archived', priority: 'high' });

    // The filters find it where it now belongs.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('unread');
    await page.getByText('No messages found').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('archived');
    await card.waitFor();

    const shortId = message.id.slice(0, 8);
    expect(await auditRows(page, 'update_message_priority', shortId)).toHaveLength(1);
    expect(await auditRows(page, 'update_message_status', shortId)).toHaveLength(2);
  });

  it("processes an airdrop, showing the server's answer", async () => {
    const page = await shop.newPage();
    await signInAsAdmin(page, shop.server, '/admin/airdrops');
    await page.getByRole('heading', { level: 1, name: 'Airdrop Management' }).waitFor();
    for (const title of ['Total Claims', 'Total Amount in SOL', 'Unique Wallets']) {
      await page.getByText(title, { exact: true }).waitFor();
    }
    await page.getByRole('searchbox', { name: 'Search by wallet' }).waitFor();

    // Process Airdrop asks first, with what the run would pay; the server says what it would be.
    const preview = page.waitForResponse((res) => res.url().endsWith('/api/admin/airdrops/preview'));
    await page.getByRole('button', { name: 'Process Airdrop' }).click();
    const confirm = page.getByRole('dialog', { name: 'Process this airdrop?' });
    await confirm.waitFor();
    const previewed = await preview;
    const confirmButton = confirm.getByRole('button', { name: 'Process Airdrop' });
    if (previewed.ok()) {
      const body = (await previewed.json()) as { recipients: number };
      await confirm.getByText(`wallet${body.recipients === 1 ? '' : 's'}.`, { exact: false }).waitFor();
    } else {
      // A shop that cannot pay (no treasury key on a real cluster): the server's reason, nothing to confirm.
      const body = (await previewed.json()) as { error?: { message?: string } };
      expect(await textOf(confirm.getByRole('alert'))).toBe(body.error?.message);
      expect(await confirmButton.isDisabled()).toBe(true);
    }
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    // With a run to confirm (the engine's answer held to the spec's shape), confirming processes
    // it: 'Processing...' while busy, and an answer without a message shows the spec's fallback.
    await page.route('**/api/admin/airdrops/preview', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ recipients: 50, totalAmountLamports: '2500000000', totalAmount: 2.5 }),
      }),
    );
    shop.allowConsoleErrors(/status of 502/);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/admin/airdrops/process', async (route) => {
      await held;
      await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' });
    });
    await page.getByRole('button', { name: 'Process Airdrop' }).click();
    await confirm.waitFor();
    await confirm.getByText('2.50 SOL').waitFor();
    expect(await textOf(confirm.locator('p').first())).toBe(
      'This sends 2.50 SOL to 50 wallets. Payments on the chain cannot be taken back.',
    );
    await confirmButton.click();
    await page.getByRole('button', { name: 'Processing...' }).waitFor();
    release();
    await page.getByRole('alert').filter({ hasText: 'Failed to process airdrop' }).waitFor();
    expect(await textOf(page.getByRole('alert'))).toBe('Failed to process airdrop');
    expect(await page.getByRole('button', { name: 'Process Airdrop' }).isEnabled()).toBe(true);
    await page.unroute('**/api/admin/airdrops/preview');
    await page.unroute('**/api/admin/airdrops/process');
  });

  it("lists orders with the spec's status filter and says 'Failed to load orders' when they fail", async () => {
    const page = await shop.newPage();
    await signInAsAdmin(page, shop.server, '/admin/orders');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    const status = page.getByRole('combobox', { name: 'Status' });
    expect(await status.locator('option').allTextContents()).toEqual([
      'All Status',
      'Pending',
      'Shipped',
      'Completed',
      'Failed',
    ]);

    // A failed load shows the spec's text, not the server's.
    shop.allowConsoleErrors(/status of 400/);
    await page.route('**/api/admin/orders?*', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: 'search is too long' } }),
      }),
    );
    await page.getByRole('searchbox', { name: 'Search orders' }).fill('anything');
    await page.getByRole('alert').filter({ hasText: 'Failed to load orders' }).waitFor();
    expect(await textOf(page.getByRole('alert'))).toBe('Failed to load orders');
  });

  it("says 'Failed to update product' when saving fails without a message, and stays on the form", async () => {
    const page = await shop.newPage();
    await signInAsAdmin(page, shop.server);
    await page
      .getByRole('link', { name: /^Edit / })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Edit Product' }).waitFor();
    const editUrl = page.url();

    shop.allowConsoleErrors(/status of 500/);
    await page.route('**/api/admin/products/*', (route) =>
      route.request().method() === 'GET'
        ? route.continue()
        : route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream exploded' }),
    );
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to update product' }).waitFor();
    expect(await textOf(page.getByRole('alert'))).toBe('Failed to update product');
    expect(page.url()).toBe(editUrl);
    await page.unroute('**/api/admin/products/*');
  });

  it('shows the navigation sections and table columns as the spec writes them (no uppercase)', async () => {
    const page = await shop.newPage({ width: 1280, height: 900 });
    await signInAsAdmin(page, shop.server);
    // innerText is the rendered text: a CSS text-transform would show in it.
    const nav = page.getByRole('navigation', { name: 'Admin' });
    // The accessible name is the DOM text (whatever the CSS does): wait for the panel with it.
    await nav.getByRole('heading', { level: 3, name: 'Features' }).waitFor();
    expect(await nav.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([
      'Overview',
      'Management',
      'Communication',
      'Features',
    ]);
    const table = page.getByRole('table', { name: 'Products' });
    await table.locator('tbody tr').first().waitFor();
    const headers = table.getByRole('columnheader');
    expect(await headers.allInnerTexts()).toEqual(
      (await headers.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()),
    );
    expect((await headers.allInnerTexts()).slice(0, 2)).toEqual(['Product', 'Price']);
  });

  it('has no serious or critical axe violation on any admin page, and no page runs past its content', async () => {
    const found: string[] = [];
    const login = await shop.newPage({ width: 1280, height: 900 });
    await login.goto('/admin/login');
    await login.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    for (const violation of await axeViolations(login)) found.push(`/admin/login: ${violation}`);
    const page = await shop.newPage({ width: 1280, height: 900 });
    await signInAsAdmin(page, shop.server);
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(() => !document.querySelector('main .animate-pulse, main .animate-spin'));
      for (const violation of await axeViolations(page)) found.push(`${path}: ${violation}`);
      // Nothing (a visually hidden table, say) stretches the page below its last card.
      const band = await page.evaluate(() => {
        const end = Math.max(
          innerHeight,
          document.querySelector('main')!.getBoundingClientRect().bottom + scrollY,
        );
        return Math.max(0, Math.round(document.documentElement.scrollHeight - end));
      });
      expect({ path, band }).toEqual({ path, band: 0 });
    }
    expect(found).toEqual([]);
  });

  it('fits every admin page on a 360 px screen', async () => {
    const page = await shop.newPage({ width: 360, height: 740, isMobile: true });
    await signInAsAdmin(page, shop.server);
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      // Loaded: no skeleton or spinner left in the page.
      await page.waitForFunction(() => !document.querySelector('main .animate-pulse, main .animate-spin'));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
    }
  });
});
