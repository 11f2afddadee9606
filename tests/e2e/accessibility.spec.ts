/**
 * Accessibility of every page (issue 15): an axe-core scan (WCAG 2.x A and AA, tests/helpers/axe.ts)
 * of each page of the web route table in Chromium finds no serious or critical violation. The visit
 * plan is checked against the router's table first, so a page added to the app without a visit here
 * fails this file. Path parameters come from data made through the shop's own API: products, a
 * customer whose order was paid in SOL on the local ledger and shipped with a tracking number, and
 * their ticket. Besides the pages: the product modal, the cart drawer at each of the four checkout
 * steps and the crypto payment screen (paid from the ledger's demo wallet to reach the confirmation),
 * the Buy Token modal and its payment screen, the sign-up form and the phone menu. Storefront pages
 * at 360 and 1280 px; account and admin pages at 1280 px (their 360 px scans: account-area.spec.ts
 * and admin.spec.ts's layout checks).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { routeMatcher } from '#common/routes';
import type { Product } from '#common/schemas/product';
import { allRoutePaths } from '#web/config/paths';
import routeConfig from '#web/app/routes';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { matchRoutes, type RouteObject } from 'react-router';
import { axeViolations } from '../helpers/axe';
import { describeBrowser, ROOT_DIR, useBrowserSuite, type BrowserSuite } from '../helpers/browser';
import { openCartWith, seedProductsThroughAdmin } from '../helpers/browser-catalog';
import { payFromDemoWallet, seedCustomerWithOrder, type SeededCustomer } from '../helpers/browser-orders';
import { outboxLink } from '../helpers/outbox';

type Role = 'guest' | 'customer' | 'admin';

interface Visit {
  url: string;
  role: Role;
}

interface SeededData {
  product: Product;
  customer: SeededCustomer;
  resetPasswordPath: string;
  /** The confirmation link of an account not yet confirmed: its page shows the account and a form. */
  verifyEmailPath: string;
}

/**
 * Every page, with the role that sees it. One entry per route of the table at least (the test below
 * holds that); a URL that needs data takes it from `data`.
 */
function visitPlan(data: SeededData): Visit[] {
  const guest = (url: string): Visit => ({ url, role: 'guest' });
  const customer = (url: string): Visit => ({ url, role: 'customer' });
  const admin = (url: string): Visit => ({ url, role: 'admin' });
  return [
    guest('/'),
    guest(`/products/${data.product.id}`),
    guest('/about'),
    guest('/faq'),
    guest('/shipping'),
    guest('/terms'),
    guest('/privacy'),
    guest('/contact'),
    guest('/how-to-buy'),
    guest('/login'),
    guest('/forgot-password'),
    guest(data.resetPasswordPath),
    guest('/verify-email'),
    guest(data.verifyEmailPath),
    guest('/confirm-email'),
    guest(`/success?reference=${data.customer.reference}`),
    guest(data.customer.guestOrderPath),
    guest(`/explorer/tx/${data.customer.signature}`),
    guest('/sign-out'),
    guest('/no-such-page'),
    guest('/admin/login'),
    // /profile sends a signed-in customer on to /profile/orders.
    customer('/profile'),
    customer('/profile/orders'),
    customer('/profile/messages'),
    customer('/profile/wallet'),
    customer('/profile/settings'),
    customer('/profile/no-such-page'),
    admin('/admin'),
    admin('/admin/products'),
    admin('/admin/products/add'),
    admin(`/admin/products/edit/${data.product.id}`),
    admin('/admin/orders'),
    admin('/admin/customers'),
    admin('/admin/messages'),
    admin('/admin/analytics'),
    admin('/admin/audit'),
    admin('/admin/airdrops'),
    admin('/admin/settings'),
    admin('/admin/outbox'),
    admin('/admin/no-such-page'),
  ];
}

/**
 * The web app's route table (src/web/app/routes.ts) as React Router matches it, each route with the
 * id the build gives it (its own, else its file without the extension).
 */
function routeObjects(entries: RouteConfigEntry[]): RouteObject[] {
  return entries.map(
    (entry) =>
      ({
        id: entry.id ?? entry.file.replace(/\.tsx?$/, ''),
        path: entry.path,
        index: entry.index,
        children: entry.children ? routeObjects(entry.children) : undefined,
      }) as RouteObject,
  );
}

const routes = routeObjects(routeConfig);

/** The ids of every route that renders something (pages, layouts and 404s; not a form's action-only route). */
function routeIds(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => {
    const source = readFileSync(path.join(ROOT_DIR, 'src/web/app', entry.file), 'utf8');
    const renders = /^export default /m.test(source);
    const id = entry.id ?? entry.file.replace(/\.tsx?$/, '');
    return [...(renders ? [id] : []), ...routeIds(entry.children ?? [])];
  });
}

/** The route ids a URL matches, outermost first. */
function matchRouteIds(pathname: string): string[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap((m) => (m.route.id ? [m.route.id] : []));
}

/** Waits until a page shows its content: its heading, no skeleton or spinner, the network quiet. */
async function settle(page: Page): Promise<void> {
  await page
    .getByRole('heading', { level: 1 })
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForFunction(() => !document.querySelector('main .animate-pulse, main .animate-spin'));
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

/** Scans the page as it is now; each violation as a line naming where it was found. */
async function scan(page: Page, where: string, found: string[]): Promise<void> {
  for (const violation of await axeViolations(page)) found.push(`${where}: ${violation}`);
}

async function signedInPage(shop: BrowserSuite, role: Role, width: number, data: SeededData): Promise<Page> {
  const page = await shop.newPage({ width, height: 900 });
  if (role === 'guest') return page;
  const credentials =
    role === 'admin' ? shop.server.admin : { email: data.customer.email, password: data.customer.password };
  const res = await page.request.post(shop.url('/api/auth/sign-in/email'), {
    data: credentials,
    headers: { origin: shop.server.baseUrl },
  });
  expect(res.status()).toBe(200);
  return page;
}

/** The cart drawer's current step, by its step indicator (aria-current="step"). */
async function expectStep(drawer: Locator, label: string): Promise<void> {
  const step = drawer.getByRole('list', { name: 'Checkout progress' }).locator('[aria-current="step"]');
  await expect.poll(async () => ((await step.textContent()) ?? '').replace(/^\d+/, '').trim()).toBe(label);
}

/** Cart, Info, Payment, the crypto payment screen and Confirmation, each scanned. */
async function scanCheckout(
  shop: BrowserSuite,
  page: Page,
  product: Product,
  width: number,
  found: string[],
) {
  const drawer = await openCartWith(page, product);
  await expectStep(drawer, 'Cart');
  await drawer.getByRole('button', { name: 'Checkout' }).waitFor();
  await scan(page, `cart drawer, Cart step @${width}px`, found);

  await drawer.getByRole('button', { name: 'Checkout' }).click();
  await expectStep(drawer, 'Info');
  await scan(page, `cart drawer, Info step @${width}px`, found);
  const info = {
    'First Name': 'Maya',
    'Last Name': 'Lindqvist',
    Email: `axe-${width}-${Date.now().toString(36)}@example.com`,
    Phone: '(415) 555-0134',
    Address: '220 Mission St',
    City: 'San Francisco',
    'ZIP Code': '94105',
  };
  for (const [label, value] of Object.entries(info))
    await drawer.getByLabel(label, { exact: true }).fill(value);
  await drawer.getByLabel('State', { exact: true }).selectOption('CA');
  await drawer.getByRole('button', { name: 'Continue to Payment' }).click();
  await expectStep(drawer, 'Payment');
  await drawer.getByRole('region', { name: 'Pay with crypto' }).waitFor();
  await scan(page, `cart drawer, Payment step @${width}px`, found);

  await drawer.getByRole('button', { name: 'Pay with SOL' }).click();
  await drawer.getByRole('img', { name: /Solana Pay QR code/ }).waitFor();
  await scan(page, `cart drawer, crypto payment screen @${width}px`, found);
  const link = await drawer
    .getByRole('button', { name: 'Copy payment link' })
    .getAttribute('data-payment-url');
  await payFromDemoWallet(shop.server, link!);
  await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 20_000 });
  await expectStep(drawer, 'Confirmation');
  await scan(page, `cart drawer, Confirmation step @${width}px`, found);
}

/** The Buy Token modal as it opens, and its payment screen (QR code and wallet choices). */
async function scanBuyToken(page: Page, width: number, found: string[]) {
  await page.goto('/');
  await page.getByRole('main').getByRole('button', { name: 'Buy Token' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Buy AELO' });
  await dialog.getByLabel('Amount (USD)').waitFor();
  await scan(page, `Buy Token modal @${width}px`, found);
  await dialog.getByRole('button', { name: 'Pay with SOL' }).click();
  await dialog.getByRole('img', { name: /Solana Pay QR code/ }).waitFor();
  await scan(page, `Buy Token modal, payment screen @${width}px`, found);
}

describeBrowser('accessibility of every page', () => {
  const shop = useBrowserSuite();
  let data: SeededData;

  beforeAll(async () => {
    const [product, forCustomer, ...forCheckout] = await seedProductsThroughAdmin(shop.server, [
      { title: 'Axe Align Legging', priceCents: 6_800 },
      { title: 'Axe Run Jacket', priceCents: 8_800 },
      { title: 'Axe Flow Bra', priceCents: 2_900 },
      { title: 'Axe Trail Short', priceCents: 3_400 },
    ]);
    const customer = await seedCustomerWithOrder(shop.server, forCustomer!, 'axe');
    const forgot = await fetch(shop.url('/api/auth/forgot-password'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.server.baseUrl },
      body: JSON.stringify({ email: customer.email }),
    });
    expect(forgot.status).toBe(200);
    const resetPasswordPath = await outboxLink(
      shop.server.dataDir,
      customer.email,
      /\/reset-password\?token=[^\s"<]+/,
    );
    const unconfirmed = `axe-confirm-${Date.now().toString(36)}@example.com`;
    const signUp = await fetch(shop.url('/api/auth/sign-up/email'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: shop.server.baseUrl },
      body: JSON.stringify({ email: unconfirmed, password: 'axe-lantern-harbor-58' }),
    });
    expect(signUp.status).toBe(200);
    const verifyEmailPath = await outboxLink(
      shop.server.dataDir,
      unconfirmed,
      /\/verify-email\?token=[^\s"<]+/,
    );
    data = { product: product!, customer, resetPasswordPath, verifyEmailPath };
    checkoutProducts = forCheckout;
  });
  let checkoutProducts: Product[] = [];

  it('has a visit for every route of the web route table', () => {
    const visits = visitPlan(data);
    const pathnames = visits.map((v) => new URL(v.url, 'http://shop.test').pathname);
    const covered = new Set(pathnames.flatMap((p) => matchRouteIds(p)));
    expect(routeIds(routeConfig).filter((id) => !covered.has(id))).toEqual([]);
    expect(allRoutePaths().filter((pattern) => !pathnames.some(routeMatcher(pattern)))).toEqual([]);
  });

  // About twenty pages at each width, each loaded, settled and scanned (axe takes 2-5 s a page on a
  // busy two-core machine): more than the journeys' usual two minutes.
  it(
    'finds no serious or critical violation on the storefront pages, the guest ones, at 360 and 1280 px',
    { timeout: 240_000 },
    async () => {
      shop.allowConsoleErrors(/status of 404/);
      const found: string[] = [];
      const visits = visitPlan(data).filter((v) => v.role === 'guest');
      await Promise.all(
        [360, 1280].map(async (width) => {
          const page = await signedInPage(shop, 'guest', width, data);
          for (const { url } of visits) {
            await page.goto(url);
            await settle(page);
            await scan(page, `${url} @${width}px`, found);
          }
          // The sign-up form of /login, and on a phone the menu.
          await page.goto('/login');
          await page.getByRole('button', { name: 'Create an account' }).click();
          await page.getByRole('button', { name: 'Create account' }).waitFor();
          await scan(page, `/login, sign-up form @${width}px`, found);
          if (width === 360) {
            await page.goto('/');
            await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
            await page.getByRole('dialog').first().waitFor();
            await scan(page, `/, menu @${width}px`, found);
          }
        }),
      );
      expect(found.sort()).toEqual([]);
    },
  );

  it('finds none in the cart drawer at each checkout step, nor in the Buy Token modal, at 360 and 1280 px', async () => {
    const found: string[] = [];
    await Promise.all(
      [360, 1280].map(async (width, i) => {
        const page = await signedInPage(shop, 'guest', width, data);
        await scanCheckout(shop, page, checkoutProducts[i]!, width, found);
        await scanBuyToken(page, width, found);
      }),
    );
    expect(found.sort()).toEqual([]);
  });

  it(
    'finds none on the account pages of a customer, nor on the admin pages, at 1280 px',
    { timeout: 240_000 },
    async () => {
      // The areas' 404 pages answer with a 404 status, which the browser logs.
      shop.allowConsoleErrors(/status of 404/);
      const found: string[] = [];
      const plan = visitPlan(data);
      await Promise.all(
        (['customer', 'admin'] as const).map(async (role) => {
          const page = await signedInPage(shop, role, 1280, data);
          for (const { url } of plan.filter((v) => v.role === role)) {
            await page.goto(url);
            await settle(page);
            await scan(page, `${url} (${role})`, found);
            // The page's first order or ticket opened, where it has them.
            const toggle = page
              .getByRole('main')
              .locator('button[aria-expanded="false"][aria-controls]')
              .first();
            if (/\/orders$|\/messages$/.test(url) && (await toggle.count()) > 0) {
              await toggle.click();
              await scan(page, `${url}, first item opened (${role})`, found);
            }
          }
        }),
      );
      expect(found.sort()).toEqual([]);
    },
  );
});
