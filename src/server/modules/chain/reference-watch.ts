import { address, type Rpc, type Signature, type SolanaRpcApi } from '@solana/kit';

/**
 * The transactions naming a reference (a checkout's or a Buy Token's), oldest first: the one place
 * that reads a reference's history from the chain, for checkout and token sales alike.
 *
 * A reference is public (it is in the QR code and the payment link), so anyone can name it in as
 * many transactions as they like. getSignaturesForAddress answers newest first, at most 1000 at a
 * time: the whole history is paged back with `before` to its start, so no number of later
 * transactions can push the real payment out of view. Failed transactions and those the caller
 * has already handled (`isKnown`) are left out; each other one is read with getTransaction (json,
 * version 0, confirmed) and handed out oldest first, so the first valid transfer is the first seen.
 *
 * The paging does not stop at a handled signature: one transaction can name several references
 * and be handled for another one (a signature pays one payment), and stopping there would hide
 * this reference's older transfers. Reading signatures is cheap (one call per 1000); what costs is
 * reading transactions, which `isKnown` spares. A listed transaction that cannot be read yet (an
 * RPC that has not indexed it) ends the pass with an error rather than be stepped over: the next
 * pass reads it again, in its place.
 */

/** At most what a node answers to one getSignaturesForAddress. */
export const MAX_SIGNATURES_PAGE = 1000;

async function fetchTransaction(rpc: Rpc<SolanaRpcApi>, signature: Signature) {
  return rpc
    .getTransaction(signature, {
      commitment: 'confirmed',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    })
    .send();
}

/** getTransaction's answer (json encoding, legacy or version 0) for a transaction that exists. */
export type ReferenceTransactionData = NonNullable<Awaited<ReturnType<typeof fetchTransaction>>>;

export interface ReferenceTransaction {
  signature: string;
  /** Seconds since the epoch, as the node knows it; null when it does not. */
  blockTime: bigint | null;
  slot: bigint;
  transaction: ReferenceTransactionData;
}

export interface TransactionsNamingOptions {
  /** True for a signature already handled: it is neither read nor handed out again. */
  isKnown?: (signature: string) => Promise<boolean>;
  /** Signatures asked for per page (1 to 1000; default 1000). */
  pageSize?: number;
}

/** A listed transaction getTransaction does not answer yet: the pass ends; the next reads it again. */
export class TransactionNotYetReadable extends Error {
  constructor(readonly signature: string) {
    super(`transaction ${signature} is listed but not readable yet`);
    this.name = 'TransactionNotYetReadable';
  }
}

export async function* transactionsNaming(
  rpc: Rpc<SolanaRpcApi>,
  reference: string,
  options: TransactionsNamingOptions = {},
): AsyncGenerator<ReferenceTransaction> {
  const limit = Math.min(
    Math.max(Math.trunc(options.pageSize ?? MAX_SIGNATURES_PAGE), 1),
    MAX_SIGNATURES_PAGE,
  );
  const target = address(reference);
  // Newest first, as the node pages them; handed out reversed.
  const listed: Array<{ signature: Signature; slot: bigint; blockTime: bigint | null }> = [];
  const seen = new Set<string>();
  let before: Signature | undefined;
  for (;;) {
    const page = await rpc
      .getSignaturesForAddress(target, { commitment: 'confirmed', limit, ...(before ? { before } : {}) })
      .send();
    for (const entry of page) {
      if (entry.err !== null || seen.has(entry.signature)) continue;
      seen.add(entry.signature);
      listed.push({ signature: entry.signature, slot: entry.slot, blockTime: entry.blockTime ?? null });
    }
    const last = page.at(-1);
    if (page.length < limit || !last) break;
    before = last.signature;
  }

  for (const entry of listed.reverse()) {
    if (options.isKnown && (await options.isKnown(entry.signature))) continue;
    const transaction = await fetchTransaction(rpc, entry.signature);
    if (!transaction) throw new TransactionNotYetReadable(entry.signature);
    // A transaction that failed after all (a listing older than its meta) pays nothing.
    if (transaction.meta?.err) continue;
    yield {
      signature: entry.signature,
      blockTime: entry.blockTime ?? transaction.blockTime ?? null,
      slot: entry.slot,
      transaction,
    };
  }
}
