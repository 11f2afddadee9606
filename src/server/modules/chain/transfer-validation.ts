/**
 * Is this confirmed transaction the payment we asked for? The rules of @solana/pay's
 * validateTransfer (after its CVE-2022-35917 fix), written over the RPC's getTransaction answer
 * (json encoding, legacy or version 0), so the server needs no web3.js:
 *
 * - the transaction exists with its meta and did not fail;
 * - the payment's reference is one of the accounts an instruction names (a transfer carries it);
 * - SOL: the recipient's balance grew by at least the amount;
 * - an SPL token: the recipient's token account for the mint (its associated account) grew by at
 *   least the amount, and the balance that grew is of that mint and owned by the recipient; a
 *   transfer of another mint is refused as such.
 *
 * Every rule has its test in transfer-validation.test.ts.
 */

export interface TokenBalanceEntry {
  accountIndex: number;
  mint: string;
  owner?: string | undefined;
  uiTokenAmount: { amount: string };
}

/** The parts of getTransaction's answer (json encoding) the rules read. */
export interface FetchedTransaction {
  meta: {
    err: unknown;
    preBalances: readonly (bigint | number)[];
    postBalances: readonly (bigint | number)[];
    preTokenBalances?: readonly TokenBalanceEntry[] | null | undefined;
    postTokenBalances?: readonly TokenBalanceEntry[] | null | undefined;
    loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } | null | undefined;
  } | null;
  transaction: {
    message: {
      accountKeys: readonly string[];
      instructions: readonly { accounts: readonly (number | bigint)[] }[];
    };
  };
}

export interface ExpectedTransfer {
  recipient: string;
  /** In base units. */
  amount: bigint;
  reference: string;
  /** For an SPL token payment: its mint and the recipient's token account for it. */
  token?: { mint: string; recipientTokenAccount: string } | undefined;
}

export type TransferCheck =
  | { ok: true; received: bigint }
  | {
      ok: false;
      reason: 'missing' | 'failed' | 'reference' | 'recipient' | 'mint' | 'amount';
      message: string;
      received?: bigint;
    };

export function validateTransfer(tx: FetchedTransaction | null, expected: ExpectedTransfer): TransferCheck {
  if (!tx?.meta) return { ok: false, reason: 'missing', message: 'Transaction not found' };
  const { meta } = tx;
  if (meta.err) return { ok: false, reason: 'failed', message: 'Transaction failed' };

  const keys = [
    ...tx.transaction.message.accountKeys,
    ...(meta.loadedAddresses?.writable ?? []),
    ...(meta.loadedAddresses?.readonly ?? []),
  ];
  const named = new Set<string>();
  for (const instruction of tx.transaction.message.instructions) {
    for (const index of instruction.accounts) {
      const key = keys[Number(index)];
      if (key) named.add(key);
    }
  }
  if (!named.has(expected.reference)) {
    return { ok: false, reason: 'reference', message: 'Reference not found in the transaction' };
  }

  let received: bigint;
  if (expected.token) {
    const { mint, recipientTokenAccount } = expected.token;
    const index = keys.indexOf(recipientTokenAccount);
    const post = meta.postTokenBalances?.find((b) => b.accountIndex === index);
    if (index === -1 || !post) {
      const otherMint = meta.postTokenBalances?.some(
        (b) => b.owner === expected.recipient && b.mint !== mint,
      );
      return otherMint
        ? { ok: false, reason: 'mint', message: 'Transfer is of another token' }
        : { ok: false, reason: 'recipient', message: 'Recipient not found' };
    }
    if (post.mint !== mint) return { ok: false, reason: 'mint', message: 'Transfer is of another token' };
    if (post.owner !== undefined && post.owner !== expected.recipient) {
      return { ok: false, reason: 'recipient', message: 'Recipient not found' };
    }
    const pre = meta.preTokenBalances?.find((b) => b.accountIndex === index);
    received = BigInt(post.uiTokenAmount.amount) - BigInt(pre?.uiTokenAmount.amount ?? '0');
  } else {
    const index = keys.indexOf(expected.recipient);
    if (index === -1) return { ok: false, reason: 'recipient', message: 'Recipient not found' };
    received = BigInt(meta.postBalances[index] ?? 0) - BigInt(meta.preBalances[index] ?? 0);
  }
  if (received < expected.amount) {
    return { ok: false, reason: 'amount', message: 'Amount not transferred', received };
  }
  return { ok: true, received };
}
