/**
 * /profile/wallet in Chromium: a Wallet Standard wallet injected into the page (its own Ed25519 key,
 * signing in the page with WebCrypto) connects, signs the shop's Sign In With Solana message, and
 * the account shows that wallet's rewards from the airdrops it received; the link is restored on
 * reload; Disconnect unlinks it. Without any wallet the spec's 'Please install Phantom wallet'.
 * The wallet is made a top holder with AELO the demo shopper sends it on the local ledger, and the
 * admin pays a real top-50 airdrop with Process Airdrop; the reward pool is credited by a row the
 * test writes into the server's database (an order would do the same), so the journey needs
 * TEST_DATABASE_URL (CI); it prints one 'SKIPPED:' line otherwise.
 */
import { generateKeyPairSync } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { getOrCreateAssociatedTokenAccount, transfer } from '@solana/spl-token';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WALLET_TEXTS } from '#common/schemas/wallet';
import type { Database } from '#server/db/client';
import { describeBrowser, useBrowserSuite, type ShopServerOptions } from '../helpers/browser';
import { signInAsAdmin, signUpCustomer } from '../helpers/browser-auth';
import { createScratchDatabase, TEST_DATABASE_URL, type ScratchDatabase } from '../helpers/databases';
import { HYDRATION_MISMATCH, withoutLoaderQuery } from '../helpers/loader-data';
import { openTestDatabase } from '../helpers/test-app';

const hasPostgres = TEST_DATABASE_URL !== undefined;
if (!hasPostgres) {
  console.warn(
    "SKIPPED: wallet and rewards journey (TEST_DATABASE_URL is not set; it writes airdrops into the server's PostgreSQL)",
  );
}

/** The demo shopper (the local ledger's funded wallet) sends `amount` AELO base units to `to`. */
async function sendAelo(shopUrl: (path: string) => string, to: string, amount: bigint): Promise<void> {
  const demo = (await (await fetch(shopUrl('/api/chain/demo-wallet'))).json()) as { secretKey: number[] };
  const shop = (await (await fetch(shopUrl('/api/shop'))).json()) as { token: { mint: string } };
  const payer = Keypair.fromSecretKey(Uint8Array.from(demo.secretKey));
  const connection = new Connection(shopUrl('/local-chain'), {
    commitment: 'confirmed',
    wsEndpoint: shopUrl('/local-chain').replace('http', 'ws'),
  });
  const mint = new PublicKey(shop.token.mint);
  const from = await getOrCreateAssociatedTokenAccount(connection, payer, mint, payer.publicKey);
  const toAccount = await getOrCreateAssociatedTokenAccount(connection, payer, mint, new PublicKey(to));
  await transfer(connection, payer, from.address, toAccount.address, payer, amount);
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
      await signUpCustomer(page, shop.server, 'wallet');
      await page.goto('/profile/wallet');
      await page.getByText(WALLET_TEXTS.connectToView).waitFor();
      // The wallet becomes one of the largest holders: 4.9 million AELO from the demo shopper.
      await sendAelo((p) => shop.url(p), address, 4_900_000n * 1_000_000n);
      await database.db
        .insertInto('reward_pool_entries')
        .values({ pool: 'buyback', amount_cents: 10_000, source: 'order' })
        .execute();

      // The admin presses Process Airdrop and confirms; the claims list on the airdrops page.
      const admin = await shop.newPage();
      await signInAsAdmin(admin, shop.server, '/admin/airdrops');
      await admin.getByRole('button', { name: 'Process Airdrop' }).click();
      const confirm = admin.getByRole('dialog', { name: 'Process this airdrop?' });
      await confirm.getByText('wallets.', { exact: false }).waitFor();
      await confirm.getByRole('button', { name: 'Process Airdrop' }).click();
      await admin.getByText('Airdrop processed:', { exact: false }).waitFor();
      await admin.getByRole('searchbox', { name: 'Search by wallet' }).fill(address);
      // The claims table (wide screens) or its cards (phones): the one on show names the wallet.
      await admin.locator(`[title="${address}"]:visible`).first().waitFor();
      const [claim] = await database.db
        .selectFrom('airdrop_claims')
        .select(['amount_lamports', 'status'])
        .where('wallet_address', '=', address)
        .execute();
      expect(claim?.status).toBe('confirmed');
      const sol = `${(Number(claim!.amount_lamports) / 1e9).toLocaleString('en-US', { maximumFractionDigits: 4 })} SOL`;
      const snapshot = await database.db
        .selectFrom('holder_snapshots')
        .select('top')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const rank = `#${snapshot.top.find((h) => h.owner === address)!.rank}`;

      await page.getByRole('button', { name: 'Connect Test Wallet' }).click();
      await page.getByRole('heading', { name: 'Wallet connected' }).waitFor();
      expect(await page.getByText(`${address.slice(0, 8)}...${address.slice(-8)}`).count()).toBe(1);
      const rewards = page.getByRole('region', { name: 'Your rewards' });
      await rewards.getByText(rank).waitFor();
      expect(await rewards.textContent()).toContain(sol);

      // Restored on load, from the account.
      await page.reload();
      await page.getByRole('heading', { name: 'Wallet connected' }).waitFor();
      await page.getByRole('region', { name: 'Your rewards' }).getByText(rank).waitFor();

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
    // The server renders the page with the shop's real answer in its loaders' data; without that
    // answer the browser asks /api/shop itself, answered above (and renders over the server's HTML).
    shop.allowConsoleErrors(HYDRATION_MISMATCH);
    await page.route('**/profile/wallet', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: withoutLoaderQuery(await response.text(), ['shop-info']) });
    });
    await signUpCustomer(page, shop.server, 'wallet');
    await page.goto('/profile/wallet');
    await page.getByText(WALLET_TEXTS.install).waitFor();
    await page.getByText(WALLET_TEXTS.connectToView).waitFor();
  });
});
