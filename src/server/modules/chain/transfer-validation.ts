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
 * A valid transfer also names its payer, the wallet a refund goes back to: for SOL the source of
 * the System transfer to the recipient; for a token the owner of the token account of the mint the
 * amount left (from the token balances), else the transfer instruction's authority (Token or
 * Token-2022, whichever program the mint has); the fee payer when nothing says more.
 *
 * Every rule has its test in transfer-validation.test.ts.
 */
import { getBase58Encoder } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';

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
      instructions: readonly CompiledInstruction[];
    };
  };
}

/** An instruction as the json encoding writes it (data in base58). */
export interface CompiledInstruction {
  accounts: readonly (number | bigint)[];
  programIdIndex?: number | bigint | undefined;
  data?: string | undefined;
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
  /** `payer`: the wallet that paid (where a refund goes). */
  | { ok: true; received: bigint; payer: string }
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
  let payer: string | undefined;
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
    payer = tokenPayer(tx, keys, mint, index);
  } else {
    const index = keys.indexOf(expected.recipient);
    if (index === -1) return { ok: false, reason: 'recipient', message: 'Recipient not found' };
    received = BigInt(meta.postBalances[index] ?? 0) - BigInt(meta.preBalances[index] ?? 0);
    payer = solPayer(tx, keys, index);
  }
  if (received < expected.amount) {
    return { ok: false, reason: 'amount', message: 'Amount not transferred', received };
  }
  return { ok: true, received, payer: payer ?? keys[0] ?? '' };
}

const base58 = getBase58Encoder();
/** System program: Transfer { lamports } is instruction 2 (u32 little-endian), from, to. */
const SYSTEM_TRANSFER = 2;
/** Token and Token-2022: Transfer (3) names source, destination, authority; TransferChecked (12) source, mint, destination, authority. */
const TOKEN_TRANSFER = 3;
const TOKEN_TRANSFER_CHECKED = 12;
const TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]);
const SYSTEM_PROGRAMS = new Set<string>([SYSTEM_PROGRAM_ADDRESS]);

/** The top-level instructions of these programs: their data decoded and their accounts' keys. */
function* instructionsOf(tx: FetchedTransaction, keys: readonly string[], programs: ReadonlySet<string>) {
  for (const ix of tx.transaction.message.instructions) {
    if (ix.programIdIndex === undefined || ix.data === undefined) continue;
    if (!programs.has(keys[Number(ix.programIdIndex)] ?? '')) continue;
    let data: Uint8Array;
    try {
      data = Uint8Array.from(base58.encode(ix.data));
    } catch {
      continue;
    }
    yield { data, accounts: ix.accounts.map((i) => keys[Number(i)] ?? '') };
  }
}

/** Who sent the SOL: the source of a System transfer to the recipient, else the account that lost most. */
function solPayer(
  tx: FetchedTransaction,
  keys: readonly string[],
  recipientIndex: number,
): string | undefined {
  const recipient = keys[recipientIndex];
  for (const ix of instructionsOf(tx, keys, SYSTEM_PROGRAMS)) {
    const discriminator = ix.data.length >= 4 ? new DataView(ix.data.buffer).getUint32(0, true) : -1;
    if (discriminator === SYSTEM_TRANSFER && ix.accounts[1] === recipient && ix.accounts[0])
      return ix.accounts[0];
  }
  const meta = tx.meta!;
  let best: { key: string; lost: bigint } | undefined;
  meta.preBalances.forEach((pre, i) => {
    const lost = BigInt(pre) - BigInt(meta.postBalances[i] ?? 0);
    const key = keys[i];
    if (i !== recipientIndex && key && lost > 0n && (!best || lost > best.lost)) best = { key, lost };
  });
  return best?.key;
}

/**
 * Who sent the token: the owner of the token account of the mint whose balance fell most (the
 * owner, not a delegate, is whose tokens they were), else the authority of a Token or Token-2022
 * transfer into the recipient's token account.
 */
function tokenPayer(
  tx: FetchedTransaction,
  keys: readonly string[],
  mint: string,
  recipientIndex: number,
): string | undefined {
  const meta = tx.meta!;
  let best: { owner: string; lost: bigint } | undefined;
  for (const pre of meta.preTokenBalances ?? []) {
    if (pre.mint !== mint || pre.accountIndex === recipientIndex) continue;
    const post = meta.postTokenBalances?.find((b) => b.accountIndex === pre.accountIndex);
    const lost = BigInt(pre.uiTokenAmount.amount) - BigInt(post?.uiTokenAmount.amount ?? '0');
    const owner = pre.owner ?? post?.owner;
    if (owner && lost > 0n && (!best || lost > best.lost)) best = { owner, lost };
  }
  if (best) return best.owner;
  const destination = keys[recipientIndex];
  for (const ix of instructionsOf(tx, keys, TOKEN_PROGRAMS)) {
    const [, second, third, fourth] = ix.accounts;
    if (ix.data[0] === TOKEN_TRANSFER && second === destination && third) return third;
    if (ix.data[0] === TOKEN_TRANSFER_CHECKED && third === destination && fourth) return fourth;
  }
  return undefined;
}
