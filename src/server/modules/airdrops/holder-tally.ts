import bs58 from 'bs58';
import type { Holding } from '#common/rewards';

/**
 * The holders of the shop's token, summed by owner as token accounts arrive (docs/rewards.md, "Who
 * is a holder"), and read back without sorting them all: the ranking (largest first, ties by
 * address) is produced a batch of the best at a time, each batch picked in one pass with a bounded
 * heap, and the random airdrop's draw (chance proportional to holdings, laid end to end in rank
 * order, as `pickByHoldings` over the whole ranking) finds its winner by a weighted selection.
 *
 * Owners are kept as their 32 bytes (a one-byte string), not as base58: base58 costs about as much
 * as everything else a snapshot does per account, so it is written only for the holders the
 * ranking hands out and for ties, which the address decides.
 */

/** How many holders one pass of the ranking keeps; the eligibility walk rarely needs more than one. */
export const RANK_BATCH = 500;

interface Entry {
  key: string;
  amount: bigint;
}

/** An address's 32 bytes as the tally keys them; null when it is not a 32-byte base58 address. */
export function ownerKeyOf(address: string): string | null {
  try {
    const bytes = bs58.decode(address);
    return bytes.length === 32 ? Buffer.from(bytes).toString('latin1') : null;
  } catch {
    return null;
  }
}

/** The point `u` (in [0, 1)) of `total` lands on: the same arithmetic as `pickByHoldings`. */
export function pointOf(u: number, total: bigint): bigint {
  const scale = 2n ** 53n;
  return (BigInt(Math.floor(Math.min(Math.max(u, 0), 1 - 2 ** -53) * 2 ** 53)) * total) / scale;
}

export class HolderTally {
  /** Positive balances by owner (the owner's 32 bytes), owners on the exclusion list left out. */
  private readonly byOwner = new Map<string, bigint>();
  private readonly excluded: Set<string>;
  /** Excluded owners seen with a positive balance: holders, but never ranked. */
  private readonly excludedSeen = new Set<string>();
  private readonly names = new Map<string, string>();

  /** `excluded`: base58 addresses that are never ranked (liquidity pools, treasury, shop wallet). */
  constructor(excluded: Iterable<string>) {
    this.excluded = new Set();
    for (const address of excluded) {
      const key = ownerKeyOf(address);
      if (key !== null) this.excluded.add(key);
    }
  }

  /** One token account: its owner's 32 bytes (latin1) and its amount. */
  add(ownerKey: string, amount: bigint): void {
    if (amount === 0n) return;
    if (this.excluded.has(ownerKey)) {
      this.excludedSeen.add(ownerKey);
      return;
    }
    const sum = this.byOwner.get(ownerKey);
    this.byOwner.set(ownerKey, sum === undefined ? amount : sum + amount);
  }

  /** Distinct owners with a positive balance, before eligibility (the excluded ones included). */
  get holderCount(): number {
    return this.byOwner.size + this.excludedSeen.size;
  }

  /** Owners not on the exclusion list, largest first, ties by address; a batch is picked per pass. */
  *ranking(batchSize = RANK_BATCH): Generator<Holding, void, undefined> {
    let after: Entry | null = null;
    for (;;) {
      const batch = this.bestAfter(after, batchSize);
      for (const e of batch) yield { owner: this.name(e.key), amount: e.amount };
      if (batch.length < batchSize) return;
      after = batch.at(-1)!;
    }
  }

  /**
   * The holder the random draw `u` lands on among the ranked holders but `without` (base58): the
   * holdings laid end to end in rank order, as `pickByHoldings(ranking, u)` would, without sorting.
   * Null when nobody is left.
   */
  pick(u: number, without: ReadonlySet<string> = new Set()): Holding | null {
    const skip = new Set<string>();
    for (const address of without) {
      const key = ownerKeyOf(address);
      if (key !== null) skip.add(key);
    }
    let keys: string[] = [];
    let amounts: bigint[] = [];
    let total = 0n;
    for (const [key, amount] of this.byOwner) {
      if (skip.has(key)) continue;
      keys.push(key);
      amounts.push(amount);
      total += amount;
    }
    if (total === 0n) return null;
    let point = pointOf(u, total);
    // Weighted selection: split around a pivot balance into those ranked ahead of it, level with
    // it and behind it, and go on in the part the point falls in. The pivot only chooses the path
    // (Math.random keeps a crafted order of balances from making it quadratic), never the winner.
    while (keys.length > 0) {
      const pivot = amounts[Math.floor(Math.random() * amounts.length)]!;
      const ahead: [string[], bigint[]] = [[], []];
      const level: string[] = [];
      const behind: [string[], bigint[]] = [[], []];
      let aheadSum = 0n;
      for (let i = 0; i < keys.length; i++) {
        const amount = amounts[i]!;
        if (amount > pivot) {
          ahead[0].push(keys[i]!);
          ahead[1].push(amount);
          aheadSum += amount;
        } else if (amount === pivot) level.push(keys[i]!);
        else {
          behind[0].push(keys[i]!);
          behind[1].push(amount);
        }
      }
      if (point < aheadSum) {
        [keys, amounts] = ahead;
        continue;
      }
      point -= aheadSum;
      const levelSum = pivot * BigInt(level.length);
      if (point < levelSum) {
        const byAddress = level.map((key) => this.name(key)).sort((a, b) => (a < b ? -1 : 1));
        return { owner: byAddress[Number(point / pivot)]!, amount: pivot };
      }
      point -= levelSum;
      [keys, amounts] = behind;
    }
    throw new Error('The draw fell past the last holder');
  }

  /** The base58 address of an owner's key, written once. */
  private name(key: string): string {
    let name = this.names.get(key);
    if (name === undefined) {
      name = bs58.encode(Buffer.from(key, 'latin1'));
      this.names.set(key, name);
    }
    return name;
  }

  /** Whether `a` ranks ahead of `b`: a larger balance, or the same and a smaller address. */
  private ahead(aKey: string, aAmount: bigint, bKey: string, bAmount: bigint): boolean {
    if (aAmount !== bAmount) return aAmount > bAmount;
    return this.name(aKey) < this.name(bKey);
  }

  /** The `k` best holders ranked behind `after` (all of them when null), best first: one pass, a heap of k. */
  private bestAfter(after: Entry | null, k: number): Entry[] {
    // A heap whose root is the kept holder ranked last, so a better one replaces it.
    const heap: Entry[] = [];
    const behind = (i: number, j: number) => {
      const a = heap[i]!;
      const b = heap[j]!;
      return this.ahead(b.key, b.amount, a.key, a.amount);
    };
    const swap = (i: number, j: number) => {
      const t = heap[i]!;
      heap[i] = heap[j]!;
      heap[j] = t;
    };
    const down = (from: number) => {
      let i = from;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < heap.length && behind(l, worst)) worst = l;
        if (r < heap.length && behind(r, worst)) worst = r;
        if (worst === i) return;
        swap(i, worst);
        i = worst;
      }
    };
    for (const [key, amount] of this.byOwner) {
      if (after && (amount > after.amount || !this.ahead(after.key, after.amount, key, amount))) continue;
      if (heap.length < k) {
        heap.push({ key, amount });
        for (let i = heap.length - 1; i > 0;) {
          const parent = (i - 1) >> 1;
          if (!behind(i, parent)) break;
          swap(i, parent);
          i = parent;
        }
      } else {
        const root = heap[0]!;
        if (amount < root.amount || !this.ahead(key, amount, root.key, root.amount)) continue;
        heap[0] = { key, amount };
        down(0);
      }
    }
    return heap.sort((a, b) => (this.ahead(a.key, a.amount, b.key, b.amount) ? -1 : 1));
  }
}
