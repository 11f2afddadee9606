import { address, type Address, type EncodedAccount } from '@solana/kit';
import bs58 from 'bs58';
import type { LiteSVM } from 'litesvm';
import type { StoredAccount } from './accounts';

/** Reading accounts out of litesvm as the ledger stores and serves them. */

export function toStored(found: EncodedAccount): StoredAccount {
  return {
    address: found.address,
    lamports: found.lamports,
    data: Uint8Array.from(found.data),
    owner: found.programAddress,
    executable: found.executable,
  };
}

/** The part of litesvm's native object that lists a program's accounts as raw bytes. */
interface NativeSvm {
  getProgramAccounts(program: Uint8Array): Array<{
    address: Uint8Array;
    account(): { lamports(): bigint; data(): Uint8Array; executable(): boolean };
  }>;
}

/**
 * Every account owned by `program` whose data passes `keep`, and how many accounts the program
 * owns (each one was looked at: what a listing costs). litesvm's own wrapper base58-encodes
 * two addresses per account before any filter, which at 100,000 token accounts is most of a holder
 * snapshot's time (bench/holder-snapshot.ts): its native listing gives raw bytes, so the data is
 * filtered first and only the kept addresses are encoded. Falls back to the wrapper should a
 * litesvm release move the native object.
 */
export function listProgramAccounts(
  svm: LiteSVM,
  program: string,
  keep: (data: Uint8Array) => boolean,
): { accounts: StoredAccount[]; scanned: number } {
  const owner = address(program);
  const native = (svm as unknown as { inner?: NativeSvm }).inner;
  if (typeof native?.getProgramAccounts !== 'function') {
    const all = svm.getProgramAccounts(owner);
    return { accounts: all.map(toStored).filter((a) => keep(a.data)), scanned: all.length };
  }
  const out: StoredAccount[] = [];
  const listed = native.getProgramAccounts(bs58.decode(program));
  for (const entry of listed) {
    const account = entry.account();
    const data = account.data();
    if (!keep(data)) continue;
    out.push({
      // 32 bytes from the VM: a valid address by construction, no need to check it again.
      address: bs58.encode(entry.address) as Address,
      lamports: account.lamports(),
      data: Uint8Array.from(data),
      owner,
      executable: account.executable(),
    });
  }
  return { accounts: out, scanned: listed.length };
}
