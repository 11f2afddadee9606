/**
 * /api/wallet and /api/rewards: a wallet is linked only after it signed the server's Sign In With
 * Solana message (its own key, this shop's domain, a one-time unexpired nonce of the caller's);
 * rewards come from airdrop_claims, only for the wallet linked to the caller's account.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { createSignInMessage } from '@solana/wallet-standard-util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WALLET_TEXTS,
  type LinkedWallet,
  type Rewards,
  type WalletSignInInput,
} from '#common/schemas/wallet';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { json, type ErrorJson } from './admin-test-kit';
import { signUpAndIn } from '../helpers/sign-up';

interface TestWallet {
  address: string;
  privateKey: KeyObject;
}

function newWallet(): TestWallet {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { address: getAddressDecoder().decode(raw), privateKey };
}

/** What a wallet's solana:signIn returns for `input`, as the link request's body. */
function signIn(wallet: TestWallet, input: WalletSignInInput, signer: TestWallet = wallet) {
  const message = createSignInMessage(input);
  return {
    address: wallet.address,
    signedMessage: Buffer.from(message).toString('base64'),
    signature: sign(null, message, signer.privateKey).toString('base64'),
  };
}

let counter = 0;
async function customer(t: TestApp): Promise<{ client: TestClient; id: string }> {
  const client = t.client({ ip: `203.0.113.${(counter++ % 250) + 1}` });
  const body = await json<{ user: { id: string } }>(
    await signUpAndIn(client, {
      email: `wallet-${Date.now().toString(36)}-${counter}@example.com`,
      password: 'pebble-garden-33',
    }),
    200,
  );
  return { client, id: body.user.id };
}

describe.each(BACKENDS)('wallet linking and rewards on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  }, 60_000);
  afterAll(() => t.close());

  const challenge = async (client: TestClient, address: string) =>
    json<WalletSignInInput>(await client.post('/api/wallet/challenge', { address }), 200);

  it('links a wallet that signed the shop’s message, and shows its rewards', async () => {
    const a = await customer(t);
    const wallet = newWallet();
    expect(await json<LinkedWallet>(await a.client.get('/api/wallet'), 200)).toEqual({
      address: null,
      linkedAt: null,
    });

    const input = await challenge(a.client, wallet.address);
    expect(input).toMatchObject({
      domain: new URL(t.deps.config.publicUrl).host,
      address: wallet.address,
      uri: new URL(t.deps.config.publicUrl).origin,
      version: '1',
      chainId: 'solana:localnet',
    });
    const linked = await json<LinkedWallet>(
      await a.client.post('/api/wallet/link', signIn(wallet, input)),
      200,
    );
    expect(linked.address).toBe(wallet.address);
    expect((await json<LinkedWallet>(await a.client.get('/api/wallet'), 200)).address).toBe(wallet.address);

    // No airdrops yet: zeros, no rank.
    expect(
      await json<Rewards>(await a.client.post('/api/rewards', { walletAddress: wallet.address }), 200),
    ).toMatchObject({
      totalEarned: '0',
      randomAirdrops: '0',
      top50Rewards: '0',
      rank: null,
      airdropCount: 0,
      lastAirdropAt: null,
    });

    // Two top-50 runs and a random airdrop; a transfer not landed yet; the rank is the latest snapshot's.
    const db = t.deps.database.db;
    const others = [newWallet(), newWallet()];
    const old = '11111111-1111-4111-8111-111111111111';
    const latest = '22222222-2222-4222-8222-222222222222';
    await db
      .insertInto('airdrop_claims')
      .values([
        {
          wallet_address: wallet.address,
          amount_lamports: '900000000',
          kind: 'top50',
          run_id: old,
          created_at: new Date(Date.now() - 86_400_000),
        },
        {
          wallet_address: others[0]!.address,
          amount_lamports: '100000000',
          kind: 'top50',
          run_id: old,
          created_at: new Date(Date.now() - 86_400_000),
        },
        { wallet_address: others[0]!.address, amount_lamports: '700000000', kind: 'top50', run_id: latest },
        { wallet_address: wallet.address, amount_lamports: '500000000', kind: 'top50', run_id: latest },
        { wallet_address: others[1]!.address, amount_lamports: '200000000', kind: 'top50', run_id: latest },
        { wallet_address: wallet.address, amount_lamports: '250000000', kind: 'random' },
        { wallet_address: wallet.address, amount_lamports: '999000000', kind: 'random', status: 'sent' },
      ])
      .execute();
    const top = (owners: string[]) =>
      JSON.stringify(owners.map((owner, i) => ({ rank: i + 1, owner, amount: String(1000 - i) })));
    await db
      .insertInto('holder_snapshots')
      .values({ holder_count: 3, top: top([wallet.address]) })
      .execute();
    await db
      .insertInto('holder_snapshots')
      .values({ holder_count: 3, top: top([others[0]!.address, wallet.address, others[1]!.address]) })
      .execute();
    const rewards = await json<Rewards>(
      await a.client.post('/api/rewards', { walletAddress: wallet.address }),
      200,
    );
    expect(rewards).toMatchObject({
      walletAddress: wallet.address,
      totalEarned: '1650000000',
      randomAirdrops: '250000000',
      top50Rewards: '1400000000',
      rank: 2,
      airdropCount: 3,
    });
    expect(rewards.lastAirdropAt).not.toBeNull();
  });

  it('refuses a signature that does not prove the wallet, a replay, an expired or another user’s request', async () => {
    const a = await customer(t);
    const b = await customer(t);
    const wallet = newWallet();
    const refuse = async (client: TestClient, body: unknown, message: string = WALLET_TEXTS.badSignature) => {
      const err = await json<ErrorJson>(await client.post('/api/wallet/link', body), 400);
      expect(err.error.message).toBe(message);
    };

    // Signed by another key.
    let input = await challenge(a.client, wallet.address);
    await refuse(a.client, signIn(wallet, input, newWallet()));
    // The message changed (another domain): each field is the server's.
    input = await challenge(a.client, wallet.address);
    await refuse(a.client, signIn(wallet, { ...input, domain: 'evil.example' }));
    // A request for another address.
    input = await challenge(a.client, wallet.address);
    const other = newWallet();
    await refuse(a.client, signIn(other, { ...input, address: other.address }));
    // Another user's request.
    input = await challenge(a.client, wallet.address);
    await refuse(b.client, signIn(wallet, input));
    // A good signature links once; the same one again is a replay.
    input = await challenge(a.client, wallet.address);
    const good = signIn(wallet, input);
    await json(await a.client.post('/api/wallet/link', good), 200);
    await refuse(a.client, good);
    // Expired.
    const past = new Date(Date.now() - 10 * 60_000);
    const stale = await t.deps.wallet.challenge(a.id, wallet.address, past);
    await refuse(a.client, signIn(wallet, stale), WALLET_TEXTS.expired);

    await json(await t.client().post('/api/wallet/challenge', { address: wallet.address }), 401);
    await json(await t.client().post('/api/wallet/link', good), 401);
    await json(await t.client().get('/api/wallet'), 401);
    const bad = await json<ErrorJson>(
      await a.client.post('/api/wallet/challenge', { address: 'not-a-wallet' }),
      400,
    );
    expect(bad.error.fields?.address).toBe('Invalid Solana address');
    await json(await a.client.post('/api/wallet/link', { ...good, signature: '%%%' }), 400);
  });

  it('gives rewards only for the caller’s linked wallet; unlinking and linking elsewhere move it', async () => {
    const a = await customer(t);
    const b = await customer(t);
    const wallet = newWallet();
    await json(
      await a.client.post('/api/wallet/link', signIn(wallet, await challenge(a.client, wallet.address))),
      200,
    );

    await json(await b.client.post('/api/rewards', { walletAddress: wallet.address }), 404);
    await json(await t.client().post('/api/rewards', { walletAddress: wallet.address }), 401);
    await json(await a.client.post('/api/rewards', { walletAddress: newWallet().address }), 404);

    // B proves the same wallet: it moves to B.
    await json(
      await b.client.post('/api/wallet/link', signIn(wallet, await challenge(b.client, wallet.address))),
      200,
    );
    expect((await json<LinkedWallet>(await a.client.get('/api/wallet'), 200)).address).toBeNull();
    await json(await b.client.post('/api/rewards', { walletAddress: wallet.address }), 200);

    expect(await json<LinkedWallet>(await b.client.delete('/api/wallet'), 200)).toEqual({
      address: null,
      linkedAt: null,
    });
    await json(await b.client.post('/api/rewards', { walletAddress: wallet.address }), 404);
  });
});
