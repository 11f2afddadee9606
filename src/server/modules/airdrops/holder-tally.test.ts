import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { pickByHoldings, type Holding } from '#common/rewards';
import { HolderTally, ownerKeyOf } from './holder-tally';

const keyOf = (address: string) => ownerKeyOf(address)!;
const newAddress = () => bs58.encode(randomBytes(32));

/** The ranking as it was defined before the tally: every owner summed, then all of them sorted. */
function sortedRanking(accounts: Array<{ owner: string; amount: bigint }>, excluded: Set<string>) {
  const byOwner = new Map<string, bigint>();
  for (const { owner, amount } of accounts) {
    if (amount === 0n) continue;
    byOwner.set(owner, (byOwner.get(owner) ?? 0n) + amount);
  }
  const ranked: Holding[] = [];
  for (const [owner, amount] of byOwner) if (!excluded.has(owner)) ranked.push({ owner, amount });
  ranked.sort((a, b) =>
    a.amount === b.amount ? (a.owner < b.owner ? -1 : 1) : a.amount > b.amount ? -1 : 1,
  );
  return { holderCount: byOwner.size, ranked };
}

/** Accounts with repeated owners, zero balances and many ties (small amounts). */
function someAccounts(owners: number, accounts: number) {
  const addresses = Array.from({ length: owners }, newAddress);
  // A short address (leading zero bytes) among them: base58 order is not byte order.
  addresses.push(bs58.encode(Buffer.concat([Buffer.alloc(3), randomBytes(29)])));
  return Array.from({ length: accounts }, (_, i) => ({
    owner: addresses[i % addresses.length]!,
    amount: BigInt(Math.floor(Math.random() * 6)) * (i % 7 === 0 ? 1_000_000_000_000n : 1n),
  }));
}

function tallyOf(accounts: Array<{ owner: string; amount: bigint }>, excluded: string[]) {
  const tally = new HolderTally(excluded);
  for (const { owner, amount } of accounts) tally.add(keyOf(owner), amount);
  return tally;
}

describe('HolderTally', () => {
  it('ranks as summing and sorting every owner does, batch after batch, with the same holder count', () => {
    for (const batch of [1, 3, 50, 10_000]) {
      const accounts = someAccounts(300, 900);
      const excluded = [accounts[0]!.owner, accounts[5]!.owner, 'not an address', newAddress()];
      const expected = sortedRanking(accounts, new Set(excluded));
      const tally = tallyOf(accounts, excluded);
      expect([...tally.ranking(batch)]).toEqual(expected.ranked);
      expect(tally.holderCount).toBe(expected.holderCount);
    }
  });

  it('hands the ranking out as it is read, the next batch picked only when asked for', () => {
    const accounts = someAccounts(100, 100);
    const ranking = tallyOf(accounts, []).ranking(10);
    const first = Array.from({ length: 12 }, () => ranking.next().value);
    expect(first).toEqual(sortedRanking(accounts, new Set()).ranked.slice(0, 12));
  });

  it('draws the holder pickByHoldings draws over the whole ranking, for any u', () => {
    const accounts = someAccounts(200, 600);
    const excluded = [accounts[1]!.owner];
    const { ranked } = sortedRanking(accounts, new Set(excluded));
    const tally = tallyOf(accounts, excluded);
    const us = [0, 1e-9, 0.25, 0.5, 0.999_999, 1, ...Array.from({ length: 200 }, Math.random)];
    for (const u of us) expect(tally.pick(u)).toEqual(pickByHoldings(ranked, u));
    // Without some owners (drawn before and found ineligible): as the ranking without them.
    const without = new Set(ranked.slice(0, 5).map((h) => h.owner));
    const rest = ranked.filter((h) => !without.has(h.owner));
    for (const u of us) expect(tally.pick(u, without)).toEqual(pickByHoldings(rest, u));
  });

  it('draws nobody when nobody holds anything', () => {
    const owner = newAddress();
    expect(tallyOf([{ owner, amount: 0n }], []).pick(0.5)).toBeNull();
    expect(tallyOf([{ owner, amount: 5n }], []).pick(0.5, new Set([owner]))).toBeNull();
    expect(tallyOf([{ owner, amount: 5n }], [owner]).holderCount).toBe(1);
    expect([...tallyOf([{ owner, amount: 5n }], [owner]).ranking()]).toEqual([]);
  });
});
