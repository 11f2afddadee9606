/**
 * What the holder-rewards engine tests share: a shop on the local ledger whose chain holds 60 plain
 * wallets and the larger owners that must be left out, the payouts the rules give them, balances
 * read with unmodified web3.js, and an engine with faults, a transport, a market or a clock of the
 * test's choosing.
 */
import { address, createDefaultRpcTransport, getProgramDerivedAddress, type RpcTransport } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { Keypair, PublicKey, type Connection } from '@solana/web3.js';
import { expect } from 'vitest';
import { centsToLamports, top50BudgetCents, usdToMicros } from '#common/rewards';
import { LOCAL_MARKET } from '#common/schemas/market';
import { createLogger } from '#server/lib/logger';
import { writeTokenAccount } from '#server/local-ledger/genesis';
import { createAirdropEngine } from '#server/modules/airdrops/airdrop-engine';
import type { MarketService } from '#server/modules/market/market.service';
import type { Backend } from '../helpers/databases';
import { connect, startShop, type RunningShop } from '../helpers/shop-server';

const AELO = 1_000_000n;
export const SOL_PRICE = usdToMicros(LOCAL_MARKET.solUsd);
const SYSTEM = address('11111111111111111111111111111111');
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

export interface Holders {
  /** The 60 plain wallets, largest first: (69 - i) million AELO. */
  wallets: string[];
  amounts: Map<string, bigint>;
  excluded: string[];
}

async function tokenAccount(shop: RunningShop, owner: string, amount: bigint) {
  const { ledger, setup } = await shop.t.deps.localChain!.get();
  await writeTokenAccount(ledger, setup.mint, address(owner), amount);
}

/**
 * 60 wallets from 10 to 69 million AELO (more than any genesis holder), and larger holders that
 * must be left out: a listed liquidity pool, a program-derived owner, an owner that is a program's
 * account, an executable owner.
 */
async function seedHolders(shop: RunningShop, liquidityPool: string): Promise<Holders> {
  const { ledger } = await shop.t.deps.localChain!.get();
  const wallets: string[] = [];
  const amounts = new Map<string, bigint>();
  for (let i = 0; i < 60; i++) {
    const owner = Keypair.generate().publicKey.toBase58();
    const amount = BigInt(69 - i) * 1_000_000n * AELO;
    wallets.push(owner);
    amounts.set(owner, amount);
    await tokenAccount(shop, owner, amount);
  }
  const [pda] = await getProgramDerivedAddress({ programAddress: SYSTEM, seeds: ['rewards test vault'] });
  const programOwned = Keypair.generate().publicKey.toBase58();
  // An executable owner: a program's own address (the Memo program is loaded in litesvm).
  const executable = MEMO_PROGRAM;
  await ledger.setAccount({
    address: address(programOwned),
    lamports: 10_000_000n,
    owner: TOKEN_PROGRAM_ADDRESS,
    executable: false,
    data: new Uint8Array(8),
  });
  await tokenAccount(shop, liquidityPool, 500_000_000n * AELO);
  await tokenAccount(shop, pda, 300_000_000n * AELO);
  await tokenAccount(shop, programOwned, 200_000_000n * AELO);
  await tokenAccount(shop, executable, 250_000_000n * AELO);
  return { wallets, amounts, excluded: [liquidityPool, pda, programOwned, executable] };
}

/** What the rules say the top 50 receive from a pool (cents → lamports), skipped shares left out. */
export function expectedPayouts(holders: Holders, poolCents: number): Map<string, bigint> {
  const top = holders.wallets.slice(0, 50);
  const total = top.reduce((sum, w) => sum + holders.amounts.get(w)!, 0n);
  const budget = BigInt(top50BudgetCents(poolCents));
  const out = new Map<string, bigint>();
  for (const w of top) {
    const cents = Number((budget * holders.amounts.get(w)!) / total);
    if (cents >= 100) out.set(w, centsToLamports(cents, SOL_PRICE));
  }
  return out;
}

export async function balances(
  connection: Connection,
  owners: readonly string[],
): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  for (const o of owners) out.set(o, BigInt(await connection.getBalance(new PublicKey(o), 'confirmed')));
  return out;
}

export async function creditPool(shop: RunningShop, pool: 'buyback' | 'random', cents: number) {
  await shop.t.deps.database.db
    .insertInto('reward_pool_entries')
    .values({ pool, amount_cents: cents, source: 'order' })
    .execute();
}

export const poolBalance = async (shop: RunningShop, pool: 'buyback' | 'random') =>
  Number(
    (
      await shop.t.deps.database.db
        .selectFrom('reward_pool_entries')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.val('0')).as('total'))
        .where('pool', '=', pool)
        .executeTakeFirstOrThrow()
    ).total,
  );

export function engineFor(
  shop: RunningShop,
  options: {
    transport?: RpcTransport;
    market?: MarketService;
    random?: () => number;
    now?: () => Date;
    database?: RunningShop['t']['deps']['database'];
  } = {},
) {
  const url = `${shop.url}/local-chain`;
  return createAirdropEngine({
    config: shop.t.deps.config,
    database: options.database ?? shop.t.deps.database,
    logger: createLogger('silent'),
    chain: shop.t.deps.chain,
    transport: options.transport ?? createDefaultRpcTransport({ url }),
    market: options.market ?? shop.t.deps.market,
    ...(options.random ? { random: options.random } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

/** Every expected recipient's balance grew by exactly its payout; everyone else's did not move. */
export function expectPaidOnce(
  before: Map<string, bigint>,
  after: Map<string, bigint>,
  expected: Map<string, bigint>,
): void {
  for (const [owner, was] of before) {
    expect(after.get(owner)! - was, owner).toBe(expected.get(owner) ?? 0n);
  }
}

/** A shop without the payment watcher, the listed liquidity pool excluded, and its holders seeded. */
export async function startRewardsShop(backend: Backend) {
  const liquidityPool = Keypair.generate().publicKey.toBase58();
  const shop = await startShop({
    backend,
    watcher: false,
    env: { AIRDROP_EXCLUDED_WALLETS: liquidityPool, AIRDROP_BATCH_SIZE: '8' },
  });
  const holders = await seedHolders(shop, liquidityPool);
  return { shop, holders, connection: connect(shop), everyone: [...holders.wallets, ...holders.excluded] };
}
