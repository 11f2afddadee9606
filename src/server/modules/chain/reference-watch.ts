import { address, type Rpc, type Signature, type SolanaRpcApi } from '@solana/kit';

/**
 * The transactions naming a reference (a checkout's or a Buy Token's), oldest first: the one place
 * that reads a reference's history from the chain, for checkout and token sales alike.
 *
 * A reference is public (it is in the QR code and the payment link), so anyone can name it in as
 * many transactions as they like. getSignaturesForAddress answers newest first, at most 1000 at a
 * time: the history is paged back with `before` until its start, or until a signature the caller
 * has already handled (`isKnown`), so no number of later transactions can push the real payment
 * out of view. Failed transactions are skipped; each other one is read with getTransaction (json,
 * version 0, confirmed) and yielded oldest first, so the first valid transfer is the first seen.
 *
 * `isKnown` must mean "handled, with everything older": the caller handles what it is given in
 * order, so the newest handled signature bounds the history still to read. A listed transaction
 * that cannot be read yet (an RPC that has not indexed it) ends the pass with an error rather
 * than be stepped over: the next pass reads it again, in its place.
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
  /** True for a signature already handled (and all before it): the history is read back to it only. */
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
  const unseen: Array<{ signature: Signature; slot: bigint; blockTime: bigint | null; failed: boolean }> = [];
  const listed = new Set<string>();
  let before: Signature | undefined;
  paging: for (;;) {
    const page = await rpc
      .getSignaturesForAddress(target, { commitment: 'confirmed', limit, ...(before ? { before } : {}) })
      .send();
    for (const entry of page) {
      if (listed.has(entry.signature)) continue;
      if (!entry.err && options.isKnown && (await options.isKnown(entry.signature))) break paging;
      listed.add(entry.signature);
      unseen.push({
        signature: entry.signature,
        slot: entry.slot,
        blockTime: entry.blockTime ?? null,
        failed: entry.err !== null,
      });
    }
    const last = page.at(-1);
    if (page.length < limit || !last) break;
    before = last.signature;
  }

  for (let i = unseen.length - 1; i >= 0; i--) {
    const entry = unseen[i]!;
    if (entry.failed) continue;
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
