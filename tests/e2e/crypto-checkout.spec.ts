/**
 * Crypto checkout in Chromium on the local ledger: the QR path completed by a test payer that reads
 * the payment link from the page (unmodified @solana/pay and web3.js), a Wallet Standard test wallet
 * injected into the page paying through 'Pay with browser wallet', the Local Demo Wallet, the wallet
 * link for a phone's user agent, and 'Please install Phantom wallet' when no wallet is there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { Connection, Keypair, sendAndConfirmTransaction, Transaction } from '@solana/web3.js';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it, vi } from 'vitest';
import type { Product } from '#common/schemas/product';
import { describeBrowser, useBrowserSuite } from '../helpers/browser';
import { openCartWith, seedProductsThroughAdmin } from '../helpers/browser-catalog';

const SHOPPER = {
  'First Name': 'Maya',
  'Last Name': 'Lindqvist',
  Email: 'maya@example.com',
  Phone: '(415) 555-0134',
  Address: '220 Mission St',
  City: 'San Francisco',
  'ZIP Code': '94105',
};

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

async function toPaymentStep(page: Page, product: Product): Promise<Locator> {
  const drawer = await openCartWith(page, product);
  await drawer.getByRole('button', { name: 'Checkout' }).click();
  for (const [label, value] of Object.entries(SHOPPER))
    await drawer.getByLabel(label, { exact: true }).fill(value);
  await drawer.getByLabel('State', { exact: true }).selectOption('CA');
  await drawer.getByRole('button', { name: 'Continue to Payment' }).click();
  await drawer.getByRole('region', { name: 'Pay with crypto' }).waitFor();
  return drawer;
}

/** The order-status link of the newest confirmation mail naming `title`, from the outbox's files. */
async function orderLinkFromOutbox(dataDir: string, title: string): Promise<string> {
  const dir = path.join(dataDir, 'outbox');
  return vi.waitFor(
    () => {
      const files = existsSync(dir) ? readdirSync(dir).sort().reverse() : [];
      for (const file of files) {
        const text = readFileSync(path.join(dir, file), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        const match = /https?:\/\/[^\s"<]+\/orders\/[^\s"<]+/.exec(text);
        if (match && text.includes(title)) return match[0];
      }
      throw new Error(`no order mail for ${title} in ${dir}`);
    },
    { timeout: 15_000, interval: 200 },
  );
}

describeBrowser('crypto checkout on the local ledger', () => {
  const shop = useBrowserSuite();
  /** web3.js finds the RPC's websocket on the same path only when told. */
  const localChain = () =>
    new Connection(shop.url('/local-chain'), {
      commitment: 'confirmed',
      wsEndpoint: shop.url('/local-chain').replace('http', 'ws'),
    });
  let products: Product[];
  let demoKey: number[];
  beforeAll(async () => {
    products = await seedProductsThroughAdmin(
      shop.server,
      ['Align Legging', 'Court Skort', 'Trail Short', 'Flow Bra', 'Run Tank'].map((title, i) => ({
        title,
        priceCents: 2_400 + i * 100,
        quantity: 5,
      })),
    );
    demoKey = ((await (await fetch(shop.url('/api/chain/demo-wallet'))).json()) as { secretKey: number[] })
      .secretKey;
  });

  it('the QR path: a payer reading the link from the page completes the order', async () => {
    const page = await shop.newPage();
    const drawer = await toPaymentStep(page, products[0]!);
    await drawer.getByRole('button', { name: 'Pay with SOL' }).click();
    const qr = drawer.getByRole('img', { name: /Solana Pay QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('width')).toBe('300');
    expect(await drawer.getByTestId('crypto-amount').textContent()).toMatch(/^0\.\d{4} SOL$/);
    await drawer.getByRole('timer').waitFor();
    const url = await drawer
      .getByRole('button', { name: 'Copy payment link' })
      .getAttribute('data-payment-url');
    const request = parseURL(url!) as TransferRequestURL;
    const connection = localChain();
    const payer = Keypair.fromSecretKey(Uint8Array.from(demoKey));
    const tx = await createTransfer(connection, payer.publicKey, {
      recipient: request.recipient,
      amount: request.amount!,
      reference: request.reference!,
    });
    await sendAndConfirmTransaction(connection, tx, [payer], { commitment: 'confirmed' });
    await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 10_000 });
  });

  it('a Wallet Standard wallet injected into the page pays AELO through Pay with browser wallet', async () => {
    const page = await shop.newPage();
    const payer = Keypair.fromSecretKey(Uint8Array.from(demoKey));
    const connection = localChain();
    // The wallet's signing and sending happen here, in the test, as an extension's would.
    await page.exposeFunction('testWalletSignAndSend', async (base64: string) => {
      const tx = Transaction.from(Buffer.from(base64, 'base64'));
      tx.partialSign(payer);
      const signature = await connection.sendRawTransaction(tx.serialize());
      await connection.confirmTransaction(signature, 'confirmed');
      return Array.from(tx.signature!);
    });
    await page.addInitScript((address: string) => {
      const account = {
        address,
        publicKey: new Uint8Array(32),
        chains: ['solana:localnet'],
        features: ['solana:signAndSendTransaction'],
      };
      const w = window as unknown as { testWalletSignAndSend: (b: string) => Promise<number[]> };
      const wallet = {
        version: '1.0.0',
        name: 'Test Wallet',
        icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
        chains: ['solana:localnet'],
        accounts: [account],
        features: {
          'standard:connect': { version: '1.0.0', connect: () => Promise.resolve({ accounts: [account] }) },
          'standard:events': { version: '1.0.0', on: () => () => undefined },
          'solana:signAndSendTransaction': {
            version: '1.0.0',
            supportedTransactionVersions: ['legacy', 0],
            signAndSendTransaction: async (input: { transaction: Uint8Array }) => {
              let binary = '';
              for (const byte of input.transaction) binary += String.fromCharCode(byte);
              const signature = await w.testWalletSignAndSend(btoa(binary));
              return [{ signature: Uint8Array.from(signature) }];
            },
          },
        },
      };
      // Every wallet that registers on the page, by name (Wallet Standard announces each on window).
      const registered: string[] = [];
      (window as unknown as { registeredWallets: string[] }).registeredWallets = registered;
      window.addEventListener('wallet-standard:register-wallet', (e) =>
        (e as CustomEvent<(app: { register: (w: { name: string }) => () => void }) => void>).detail({
          register: (w) => {
            registered.push(w.name);
            return () => undefined;
          },
        }),
      );
      // The Wallet Standard registration handshake, as a wallet extension does it.
      const register = ({ register }: { register: (w: unknown) => void }) => register(wallet);
      window.addEventListener('wallet-standard:app-ready', (e) => register((e as CustomEvent).detail));
      window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
    }, payer.publicKey.toBase58());

    const drawer = await toPaymentStep(page, products[1]!);
    await drawer.getByRole('button', { name: 'Pay with AELO' }).click();
    expect(await drawer.getByTestId('crypto-amount').textContent()).toMatch(/ AELO$/);
    // The Local Demo Wallet registers once the payment block has fetched its key; with one wallet
    // only, the button would pay with it at once instead of offering the choice.
    await page.waitForFunction(() =>
      (window as unknown as { registeredWallets: string[] }).registeredWallets.includes('Local Demo Wallet'),
    );
    await drawer.getByRole('button', { name: 'Pay with browser wallet' }).click();
    // Two wallets here (the test's and the Local Demo Wallet): the shopper chooses.
    await drawer.getByRole('button', { name: 'Test Wallet' }).click();
    await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 10_000 });
  });

  it('the Local Demo Wallet pays with no extension installed; the guest follows the order from its mail', async () => {
    const page = await shop.newPage();
    const drawer = await toPaymentStep(page, products[2]!);
    await drawer.getByRole('button', { name: 'Pay with SOL' }).click();
    await drawer.getByRole('button', { name: 'Pay with browser wallet' }).click();
    await drawer.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor({ timeout: 10_000 });

    // The confirmation mail, as a newcomer finds it in DATA_DIR/outbox, links to the order's page.
    const link = await orderLinkFromOutbox(shop.server.dataDir, products[2]!.title);
    // The page's HTML already holds the order (nothing loads in after, nothing moves), and no cache
    // keeps it, as none keeps the order's API answer.
    const served = await page.request.get(link);
    expect(served.headers()['cache-control']).toBe('no-store');
    const html = await served.text();
    expect(html).toContain(products[2]!.title);
    expect(html).toContain('>Preparing<');
    await page.goto(link);
    await page.getByRole('heading', { name: /^Order #[0-9a-f]{8}$/ }).waitFor();
    await page.getByText('Preparing', { exact: true }).waitFor();
    await page.getByText(products[2]!.title).waitFor();
    await page
      .getByRole('link', { name: /^[1-9A-HJ-NP-Za-km-z]{8}\.\.\.[1-9A-HJ-NP-Za-km-z]{8}$/ })
      .waitFor();
    // The same page with the link's token changed shows nothing of it.
    shop.allowConsoleErrors(/404/);
    await page.goto(link.replace(/token=(\d+)\./, (_, n: string) => `token=${Number(n) + 1}.`));
    await page.getByRole('heading', { name: 'Order not found' }).waitFor();
  });

  it('a phone gets the wallet link; with no wallet at all, Please install Phantom wallet', async () => {
    const page = await shop.newPage({ width: 390, height: 844, isMobile: true, userAgent: IPHONE });
    // A shop without the demo wallet: the page finds no wallet.
    shop.allowConsoleErrors(/404/);
    await page.route('**/api/chain/demo-wallet', (route) => route.fulfill({ status: 404, body: '{}' }));
    const drawer = await toPaymentStep(page, products[3]!);
    await drawer.getByRole('button', { name: 'Pay with SOL' }).click();
    const link = drawer.getByRole('link', { name: 'Open in wallet app' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(
      /^solana:[1-9A-HJ-NP-Za-km-z]{32,44}\?amount=0\.\d+&reference=/,
    );
    expect(await drawer.getByRole('img', { name: /QR code/ }).count()).toBe(0);
    await drawer.getByRole('button', { name: 'Pay with browser wallet' }).click();
    await drawer.getByText('Please install Phantom wallet', { exact: true }).waitFor();
    // Leaving the payment ends it: the stock goes back at once.
    await drawer.getByRole('button', { name: 'Choose another way to pay' }).click();
    await drawer.getByRole('button', { name: 'Pay with SOL' }).waitFor();
  });
});
