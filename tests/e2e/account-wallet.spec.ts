/**
 * /profile/wallet in Chromium: a Wallet Standard wallet injected into the page (its own Ed25519 key,
 * signing in the page with WebCrypto) connects, signs the shop's Sign In With Solana message, and
 * the account shows that wallet's rewards from the airdrops it received; the link is restored on
 * reload; Disconnect unlinks it. Without any wallet the spec's 'Please install Phantom wallet'.
 * The airdrops are rows the test writes into the server's database, so the journey needs
 * TEST_DATABASE_URL (CI); it prints one 'SKIPPED:' line otherwise.
 */
import { generateKeyPairSync } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WALLET_TEXTS } from '#common/schemas/wallet';
import type { Database } from '#server/db/client';
import { describeBrowser, useBrowserSuite, type ShopServerOptions } from '../helpers/browser';
import { createScratchDatabase, TEST_DATABASE_URL, type ScratchDatabase } from '../helpers/databases';
import { openTestDatabase } from '../helpers/test-app';

const hasPostgres = TEST_DATABASE_URL !== undefined;
if (!hasPostgres) {
  console.warn(
    "SKIPPED: wallet and rewards journey (TEST_DATABASE_URL is not set; it writes airdrops into the server's PostgreSQL)",
  );
}

/** Registers a Wallet Standard wallet named 'Test Wallet' in the page before any script runs. */
async function injectTestWallet(page: Page): Promise<string> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const address = getAddressDecoder().decode(raw);
  const pkcs8 = [...privateKey.export({ format: 'der', type: 'pkcs8' })];
  await page.addInitScript(
    ({ address, publicKey, pkcs8 }) => {
      const keyPromise = crypto.subtle.importKey('pkcs8', new Uint8Array(pkcs8), { name: 'Ed25519' }, false, [
        'sign',
      ]);
      const account = {
        address,
        publicKey: new Uint8Array(publicKey),
        chains: ['solana:localnet'],
        features: ['solana:signIn', 'solana:signMessage'],
      };
      const sign = async (message: Uint8Array<ArrayBuffer>) => ({
        signedMessage: message,
        signature: new Uint8Array(await crypto.subtle.sign('Ed25519', await keyPromise, message)),
      });
      const signInText = (i: Record<string, string | undefined>) => {
        const fields = [
          ['URI', i.uri],
          ['Version', i.version],
          ['Chain ID', i.chainId],
          ['Nonce', i.nonce],
          ['Issued At', i.issuedAt],
          ['Expiration Time', i.expirationTime],
        ]
          .filter(([, v]) => v)
          .map(([k, v]) => `${k}: ${v}`);
        return `${i.domain ?? location.host} wants you to sign in with your Solana account:\n${address}${
          i.statement ? `\n\n${i.statement}` : ''
        }\n\n${fields.join('\n')}`;
      };
      let connected = false;
      const wallet = {
        version: '1.0.0',
        name: 'Test Wallet',
        icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
        chains: ['solana:localnet'],
        get accounts() {
          return connected ? [account] : [];
        },
        features: {
          'standard:connect': {
            version: '1.0.0',
            connect: () => {
              connected = true;
              return Promise.resolve({ accounts: [account] });
            },
          },
          'standard:disconnect': {
            version: '1.0.0',
            disconnect: () => {
              connected = false;
              return Promise.resolve();
            },
          },
          'standard:events': { version: '1.0.0', on: () => () => undefined },
          'solana:signMessage': {
            version: '1.1.0',
            signMessage: (...inputs: Array<{ message: Uint8Array<ArrayBuffer> }>) =>
              Promise.all(inputs.map((i) => sign(i.message))),
          },
          'solana:signIn': {
            version: '1.0.0',
            signIn: (...inputs: Array<Record<string, string | undefined>>) =>
              Promise.all(
                inputs.map(async (i) => ({
                  account,
                  ...(await sign(new TextEncoder().encode(signInText(i)))),
                })),
              ),
          },
        },
      };
      const register = ({ register }: { register: (w: unknown) => void }) => register(wallet);
      try {
        window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }));
      } catch (error) {
        console.warn('wallet-standard:register-wallet event could not be dispatched', error);
      }
      window.addEventListener('wallet-standard:app-ready', (event) =>
        register((event as CustomEvent<{ register: (w: unknown) => void }>).detail),
      );
    },
    { address, publicKey: [...raw], pkcs8 },
  );
  return address;
}

async function signUp(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email', { exact: true }).fill(`wallet-${Date.now().toString(36)}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('harbor-lights-71');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/profile/orders');
}

describeBrowser('wallet and rewards', () => {
  const serverOptions: ShopServerOptions = {};
  let scratch: ScratchDatabase | undefined;
  let database: Database | undefined;
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

  it.skipIf(!hasPostgres)(
    'connects an injected wallet, proves it by signing, and shows its rewards',
    async () => {
      database = await openTestDatabase(scratch!, { poolSize: 2 });
      const page = await shop.newPage();
      const address = await injectTestWallet(page);
      await signUp(page);
      await page.goto('/profile/wallet');
      await page.getByText(WALLET_TEXTS.connectToView).waitFor();
      await database.db
        .insertInto('airdrop_claims')
        .values([
          {
            wallet_address: address,
            amount_lamports: '1500000000',
            kind: 'top50',
            run_id: '33333333-3333-4333-8333-333333333333',
          },
          { wallet_address: address, amount_lamports: '250000000', kind: 'random' },
        ])
        .execute();

      await page.getByRole('button', { name: 'Connect Test Wallet' }).click();
      await page.getByRole('heading', { name: 'Wallet connected' }).waitFor();
      expect(await page.getByText(`${address.slice(0, 8)}...${address.slice(-8)}`).count()).toBe(1);
      const rewards = page.getByRole('region', { name: 'Your rewards' });
      await rewards.getByText('1.75 SOL').waitFor();
      const text = await rewards.textContent();
      expect(text).toContain('0.25 SOL');
      expect(text).toContain('1.5 SOL');
      expect(text).toContain('#1');

      // Restored on load, from the account.
      await page.reload();
      await page.getByRole('heading', { name: 'Wallet connected' }).waitFor();
      await page.getByRole('region', { name: 'Your rewards' }).getByText('1.75 SOL').waitFor();

      await page.getByRole('button', { name: 'Disconnect Wallet' }).click();
      await page.getByText(WALLET_TEXTS.connectToView).waitFor();
    },
  );

  it("says 'Please install Phantom wallet' when the browser has no Solana wallet", async () => {
    const page = await shop.newPage();
    // A shop on a real cluster: no Local Demo Wallet, and this browser has no extension.
    await page.route('**/api/shop', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { token: Record<string, unknown> };
      await route.fulfill({ response: res, json: { ...body, token: { ...body.token, demoWallet: false } } });
    });
    await signUp(page);
    await page.goto('/profile/wallet');
    await page.getByText(WALLET_TEXTS.install).waitFor();
    await page.getByText(WALLET_TEXTS.connectToView).waitFor();
  });
});
