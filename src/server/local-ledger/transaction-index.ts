/**
 * The ledger's transactions as a node looks them up: by signature, by the address they touched
 * (getSignaturesForAddress, newest first) and by the slot of their block (getBlockTime). Held in
 * memory; the ledger fills it from disk at start and with each transaction it processes.
 */
import type { LedgerTransaction } from './ledger-store';
import type { RpcTransactionError } from './transaction-error';

export interface SignatureInfo {
  signature: string;
  slot: number;
  err: RpcTransactionError | null;
  blockTime: number;
}

export class TransactionIndex {
  private readonly transactions = new Map<string, LedgerTransaction>();
  /** Per address, its signatures oldest first. */
  private readonly byAddress = new Map<string, string[]>();

  has(signature: string): boolean {
    return this.transactions.has(signature);
  }

  add(record: LedgerTransaction): void {
    this.transactions.set(record.signature, record);
    for (const key of new Set(record.accountKeys)) {
      const list = this.byAddress.get(key);
      if (list) list.push(record.signature);
      else this.byAddress.set(key, [record.signature]);
    }
  }

  /** When the block at `slot` was made: its transaction's time (each block holds one), else null. */
  blockTime(slot: number): number | null {
    for (const record of this.transactions.values()) if (record.slot === slot) return record.blockTime;
    return null;
  }

  get(signature: string): LedgerTransaction | null {
    return this.transactions.get(signature) ?? null;
  }

  /** Newest first, as getSignaturesForAddress answers; `before`/`until` are exclusive bounds. */
  signaturesFor(key: string, options: { limit: number; before?: string; until?: string }): SignatureInfo[] {
    const list = this.byAddress.get(key) ?? [];
    const out: SignatureInfo[] = [];
    let started = options.before === undefined;
    for (let i = list.length - 1; i >= 0 && out.length < options.limit; i--) {
      const signature = list[i]!;
      if (!started) {
        if (signature === options.before) started = true;
        continue;
      }
      if (signature === options.until) break;
      const record = this.transactions.get(signature)!;
      out.push({ signature, slot: record.slot, err: record.err, blockTime: record.blockTime });
    }
    return out;
  }
}
