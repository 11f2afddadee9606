/**
 * The production recipe of deploy/, run whole on this machine (`npm run test:deploy`, a step of
 * .ci/run): a fresh PostgreSQL database, s3rver, a real SMTP server, the Stripe stand-in, a Solana
 * ledger host (an instance with the demo ledger, reached by the others through SOLANA_RPC_URL as a
 * real cluster's RPC), two built instances with NODE_ENV=production, and Caddy with
 * deploy/Caddyfile and a private CA in front. Everything a shopper and the owner do goes over https
 * through Caddy; the instances are reached directly only to show that both serve the same shop.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection, Keypair } from '@solana/web3.js';
import sharp from 'sharp';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutResponse, PaymentStatusResponse } from '#common/schemas/checkout';
import type { Product, ProductInput } from '#common/schemas/product';
import { startFakeMarketFeeds, type FakeMarketFeeds } from '../fakes/market-feeds';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import { SHIPPING_INFO } from '../factories/order';
import {
  DEFAULT_ADMIN,
  hasBrowser,
  launchChromium,
  startShopServer,
  type ShopServer,
} from '../helpers/browser';
import { openCartWith } from '../helpers/browser-catalog';
import { payTransferRequest } from '../helpers/crypto-checkout';
import { TEST_DATABASE_URL, dropDatabase, withPostgres } from '../helpers/databases';
import { httpsClient, type FetchHttps } from './https-client';
import {
  caddyPath,
  startCaddy,
  startMailServer,
  startS3Server,
  type Caddy,
  type MailServer,
  type S3Server,
} from './services';

const skipReason = !TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL is not set (the recipe runs on PostgreSQL)'
  : !caddyPath
    ? 'caddy is not installed (apt-get install caddy)'
    : !hasBrowser
      ? 'no Chromium'
      : undefined;
if (skipReason) console.warn(`SKIPPED: the production deploy test (${skipReason})`);

describe.skipIf(skipReason !== undefined)(
  'production recipe: Caddy, two instances, PostgreSQL, S3, SMTP',
  { timeout: 180_000 },
  () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shop-deploy-'));
    const dbName = `shop_deploy_${randomBytes(5).toString('hex')}`;
    let smtp!: MailServer;
    let s3!: S3Server;
    let stripe!: FakeStripeServer;
    let feeds!: FakeMarketFeeds;
    let ledger!: ShopServer;
    let a!: ShopServer;
    let b!: ShopServer;
    let caddy!: Caddy;
    let https!: FetchHttps;
    let browser!: Browser;
    let shopper!: Keypair;
    let adminCookie = '';
    let product!: Product;
    const photo = { bytes: Buffer.alloc(0) };

    const publicUrl = () => caddy.url;
    const json = (body: unknown, cookie = '') => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: publicUrl(), ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });

    beforeAll(async () => {
      await withPostgres(TEST_DATABASE_URL!, (c) => c.query(`create database ${dbName}`));
      const dbUrl = new URL(TEST_DATABASE_URL!);
      dbUrl.pathname = `/${dbName}`;
      [smtp, s3, feeds] = await Promise.all([
        startMailServer(),
        startS3Server(path.join(dir, 's3')),
        startFakeMarketFeeds(),
      ]);
      // Card webhooks reach the shop as Stripe's do: over https, through the proxy.
      stripe = await startFakeStripe({
        webhook: async (request) => {
          const answer = await https(`${publicUrl()}/api/webhooks/stripe`, {
            method: 'POST',
            headers: Object.fromEntries(request.headers),
            body: await request.text(),
          });
          return new Response(new Uint8Array(answer.body), { status: answer.status });
        },
      });

      // The ledger host: an instance of its own whose demo ledger the shop's instances use as their
      // cluster (SOLANA_RPC_URL), as they would use mainnet through an RPC provider.
      ledger = await startShopServer({ env: { LOCAL_LEDGER: 'demo', LOG_LEVEL: 'info' } });
      const host = JSON.parse(
        ledger
          .logs()
          .split('\n')
          .find((l) => l.includes('"shopWallet"')) ?? '{}',
      ) as { mint?: string; shopWallet?: string };
      expect(host.mint && host.shopWallet, ledger.logs().slice(-2000)).toBeTruthy();
      const demo = (await (await fetch(`${ledger.baseUrl}/api/chain/demo-wallet`)).json()) as {
        secretKey: number[];
      };
      shopper = Keypair.fromSecretKey(Uint8Array.from(demo.secretKey));

      // Caddy's port is the shop's PUBLIC_URL: known before the instances start, upstreams after.
      const { findFreePort } = await import('../helpers/browser');
      const ports = [await findFreePort(), await findFreePort()];
      caddy = await startCaddy(
        path.join(dir, 'caddy'),
        ports.map((p) => `127.0.0.1:${p}`),
      );
      https = httpsClient(caddy.rootCa);
      const shared: Record<string, string> = {
        PUBLIC_URL: caddy.url,
        TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
        AUTH_SECRET: randomBytes(32).toString('hex'),
        ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Aelo <shop@example.com>',
        ...stripeEnv(stripe),
        SOLANA_RPC_URL: `${ledger.baseUrl}/local-chain`,
        TOKEN_MINT: host.mint!,
        SHOP_WALLET: host.shopWallet!,
        MARKET_DEX_URL: feeds.dexUrl,
        MARKET_PRICE_URL: feeds.priceUrl,
        PAYMENT_WATCH_INTERVAL_MS: '300',
        // The bucket's certificate is the test's own: the instances trust it as they trust public CAs.
        NODE_EXTRA_CA_CERTS: s3.caFile,
      };
      // Both start at once on the empty database: one migrates and bootstraps the admin, the other waits.
      const started = await Promise.all(
        ports.map((port) =>
          startShopServer({ databaseUrl: dbUrl.toString(), env: shared, port, pgliteTemplate: false }),
        ),
      );
      [a, b] = started as [ShopServer, ShopServer];
      browser = await launchChromium();
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await Promise.all([caddy?.stop(), a?.stop(), b?.stop()]);
      await Promise.all([ledger?.stop(), smtp?.close(), s3?.close(), stripe?.close(), feeds?.close()]);
      await dropDatabase(TEST_DATABASE_URL!, dbName).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    });

    const newContext = async (): Promise<BrowserContext> => {
      // The page talks https to Caddy; Chromium does not know the test's private CA (the test's own
      // clients do, and check it), so only its certificate errors are let through.
      const context = await browser.newContext({ baseURL: publicUrl(), ignoreHTTPSErrors: true });
      await context.addCookies([
        { name: 'aelo-cookie-consent', value: 'true', url: publicUrl() },
        { name: 'aelo-disclaimer-accepted', value: 'true', url: publicUrl() },
      ]);
      return context;
    };

    it('serves the shop over https with its security headers, and only ready instances get traffic', async () => {
      const home = await https(`${publicUrl()}/`);
      expect(home.status).toBe(200);
      expect(home.text()).toContain('<html');
      expect(home.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(home.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(home.headers['x-content-type-options']).toBe('nosniff');
      expect(home.headers['x-frame-options'] ?? home.headers['content-security-policy']).toMatch(
        /DENY|frame-ancestors 'none'/,
      );
      const ready = await https(`${publicUrl()}/api/health/ready`);
      expect(ready.status).toBe(200);
      // Plain http is not served: Caddy answers it with a redirect to https.
      expect(publicUrl().startsWith('https://')).toBe(true);
    });

    it('lets the owner sign in with a Secure session cookie and upload a photo that both instances serve', async () => {
      const signIn = await https(`${publicUrl()}/api/auth/sign-in/email`, json(DEFAULT_ADMIN));
      expect(signIn.status).toBe(200);
      const setCookies = [signIn.headers['set-cookie'] ?? []].flat();
      const session = setCookies.find((c) => c.startsWith('__Secure-shop.session_token='));
      expect(session, setCookies.join('\n')).toBeDefined();
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
      adminCookie = signIn.cookies();

      photo.bytes = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#d6d3d1' } })
        .png()
        .toBuffer();
      const upload = await https(`${publicUrl()}/api/uploads`, {
        method: 'POST',
        headers: { origin: publicUrl(), cookie: adminCookie, 'content-type': 'image/png' },
        body: photo.bytes,
      });
      expect(upload.status, upload.text()).toBe(201);
      const { path: image } = upload.json<{ path: string }>();
      const input: ProductInput = {
        title: 'Deploy Check Legging',
        description: 'Condition: Like New. Authenticated.',
        brand: 'Test Brand',
        priceCents: 4_200,
        originalPriceCents: null,
        images: [image],
        quantity: 10,
        sizes: ['S', 'M'],
        colors: ['Black'],
        sizeGuide: null,
        sizeStock: null,
        gender: 'womens',
        category: 'womens-leggings',
        shippingWeight: 0.5,
      };
      const created = await https(`${publicUrl()}/api/admin/products`, json(input, adminCookie));
      expect(created.status, created.text()).toBe(201);
      product = created.json<Product>();

      // Each instance, asked directly, has the product and its photo in the bucket.
      for (const instance of [a, b]) {
        const res = await fetch(`${instance.baseUrl}/api/products/${product.id}`);
        expect(res.status).toBe(200);
        const seen = (await res.json()) as Product;
        const url = seen.images[0]!.url;
        expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
        const img = await httpsClient(s3.ca)(url);
        expect(img.status).toBe(200);
        expect(img.headers['content-type']).toBe('image/webp');
        expect(img.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
      }
    });

    it('sends a live event written through one instance to a stream open on the other', async () => {
      const stream = await fetch(`${b.baseUrl}/api/events?topics=catalog`, {
        headers: { accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      let seen = '';
      const arrived = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return false;
          seen += new TextDecoder().decode(value);
          if (seen.includes(product.id)) return true;
        }
      })();
      // The owner changes the price on instance A (its own address, a same-origin request there).
      const signIn = await fetch(`${a.baseUrl}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: a.baseUrl },
        body: JSON.stringify(DEFAULT_ADMIN),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const started = Date.now();
      const patch = await fetch(`${a.baseUrl}/api/admin/products/${product.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', origin: a.baseUrl, cookie },
        body: JSON.stringify({ priceCents: 3_900 }),
      });
      expect(patch.status, await patch.clone().text()).toBe(200);
      const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000));
      expect(await Promise.race([arrived, timeout]), seen).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
      await reader.cancel();
    });

    it('browses, signs up, confirms the address from the mail that came over SMTP, and pays by card', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await page.goto('/');
      await page.getByRole('list', { name: 'Products' }).getByText('Deploy Check Legging').waitFor();
      // The photo on the page comes from the bucket.
      const src = await page.locator(`img[src*="${s3.bucket}"]`).first().getAttribute('src');
      expect(src).toContain(s3.endpoint);

      const email = `deploy-${Date.now().toString(36)}@example.com`;
      await page.goto('/login');
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('lilac-harbour-42');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page
        .waitForURL((url) => url.pathname.startsWith('/profile'))
        .catch(async (err: Error) => {
          // Say what the page says instead (a refused form shows its reason).
          const alerts = await page.getByRole('alert').allTextContents();
          const logs = [a, b].map((i) => i.logs().slice(-3000)).join('\n---\n');
          throw new Error(`${err.message}\nat ${page.url()}: ${alerts.join(' | ')}\n${logs}`);
        });
      const mail = await smtp.waitFor(email, /^Confirm your email address$/);
      const link = /https:\/\/[^\s"<]+\/verify-email\?token=[^\s"<]+/.exec(mail.text ?? '')?.[0];
      expect(link?.startsWith(publicUrl())).toBe(true);
      expect(mail.html || '').toContain('Confirm email');
      await page.goto(link!);
      await page.getByRole('button', { name: "I know this account's password" }).click();
      await page.getByLabel('Password', { exact: true }).fill('lilac-harbour-42');
      await page.getByRole('button', { name: 'Confirm email' }).click();
      await page.waitForURL((url) => url.pathname === '/profile/orders');
      const cookies = await context.cookies(publicUrl());
      const session = cookies.find((c) => c.name === '__Secure-shop.session_token');
      expect(session?.secure).toBe(true);
      expect(session?.httpOnly).toBe(true);

      // Card: the cart, the shipping info (prefilled from the account but the address), Stripe's page.
      const drawer = await openCartWith(page, product);
      await drawer.getByRole('button', { name: 'Checkout' }).click();
      const fill = {
        'First Name': 'Maya',
        'Last Name': 'Lindqvist',
        Phone: '(415) 555-0134',
        Address: '220 Mission St',
        City: 'San Francisco',
        'ZIP Code': '94105',
      };
      for (const [label, value] of Object.entries(fill))
        await drawer.getByLabel(label, { exact: true }).fill(value);
      await drawer.getByLabel('State', { exact: true }).selectOption('CA');
      await drawer.getByRole('button', { name: 'Continue to Payment' }).click();
      await drawer.getByRole('button', { name: 'Pay with Card' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'));
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL((url) => url.origin === publicUrl() && url.pathname === '/success');
      await page.getByRole('heading', { level: 1, name: 'Thank You for Your Order!' }).waitFor();
      // The order confirmation arrives over SMTP too.
      const confirmation = await smtp.waitFor(email, /^Order #[0-9a-f]{8} confirmed$/);
      expect(confirmation.text).toContain('Deploy Check Legging');
      await context.close();
    });

    it('takes a SOL payment on the cluster the instances reach through SOLANA_RPC_URL', async () => {
      const started = await https(
        `${publicUrl()}/api/checkout`,
        json({
          items: [{ productId: product.id, size: 'S', color: 'Black', quantity: 1 }],
          shippingInfo: SHIPPING_INFO,
          paymentMethod: 'sol',
        }),
      );
      expect(started.status, started.text()).toBe(201);
      const checkout = started.json<CheckoutResponse>();
      const connection = new Connection(`${ledger.baseUrl}/local-chain`, {
        commitment: 'confirmed',
        // The RPC's websocket is on the same address (web3.js would guess the next port).
        wsEndpoint: `${ledger.baseUrl.replace('http', 'ws')}/local-chain`,
      });
      await payTransferRequest(connection, shopper, checkout.crypto!.paymentUrl);
      const until = Date.now() + 30_000;
      let status: PaymentStatusResponse;
      for (;;) {
        const res = await https(
          `${publicUrl()}/api/payments/${checkout.reference}/status?token=${encodeURIComponent(checkout.accessToken)}`,
        );
        status = res.json<PaymentStatusResponse>();
        if (status.status === 'completed' || Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(status.status).toBe('completed');
      expect(status.order_id).toBeTruthy();
    });
  },
);
