/**
 * The local ledger on disk (DATA_DIR/local-ledger): `state.json` (every account the ledger wrote,
 * since litesvm 1.4 cannot save its state, and the meta: chain position, blockhash window, faucet
 * key), written whole through a temporary file and one rename, so a crash leaves either the state
 * before a transaction or the state after it, never its balances without its slot; and
 * `transactions.ndjson` (one processed transaction a line, appended before the state that counts
 * it). Ledgers saved before `state.json` (`accounts.json` + `meta.json`) are still read.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createKeyPairSignerFromPrivateKeyBytes, getBase58Encoder, type KeyPairSigner } from '@solana/kit';
import type { uiTokenAmount } from './accounts';
import type { RpcTransactionError } from './transaction-error';

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: ReturnType<typeof uiTokenAmount>;
}

/** One processed transaction, as kept on disk and served by getTransaction. */
export interface LedgerTransaction {
  signature: string;
  slot: number;
  blockTime: number;
  version: 'legacy' | 0;
  /** The transaction as it was sent (base64 wire bytes). */
  wire: string;
  /** Static keys, then keys loaded from lookup tables (writable, then readonly). */
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  err: RpcTransactionError | null;
  fee: string;
  preBalances: string[];
  postBalances: string[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logs: string[];
  computeUnitsConsumed: number;
}

export interface LedgerMeta {
  genesisHash: string;
  slot: number;
  /** Recent blockhashes, newest last, with the block height each was made at. */
  blockhashes: { hash: string; height: number }[];
  faucet: number[];
}

/** An account as saved: lamports as a decimal string, data in base64. */
export interface SavedAccount {
  lamports: string;
  data: string;
  owner: string;
  executable: boolean;
}

export function createLedgerStore(dir: string) {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  const writeWhole = (name: string, data: string) => {
    writeFileSync(`${file(name)}.tmp`, data);
    renameSync(`${file(name)}.tmp`, file(name));
  };
  return {
    /** The saved accounts and meta, or null for a ledger never saved here. */
    read(): { accounts: Record<string, SavedAccount>; meta: LedgerMeta } | null {
      if (existsSync(file('state.json'))) {
        return JSON.parse(readFileSync(file('state.json'), 'utf8')) as {
          accounts: Record<string, SavedAccount>;
          meta: LedgerMeta;
        };
      }
      if (!existsSync(file('accounts.json')) || !existsSync(file('meta.json'))) return null;
      return {
        accounts: JSON.parse(readFileSync(file('accounts.json'), 'utf8')) as Record<string, SavedAccount>,
        meta: JSON.parse(readFileSync(file('meta.json'), 'utf8')) as LedgerMeta,
      };
    },
    write(accounts: Record<string, SavedAccount>, meta: LedgerMeta): void {
      writeWhole('state.json', JSON.stringify({ meta, accounts }));
    },
    appendTransaction(record: LedgerTransaction): void {
      appendFileSync(file('transactions.ndjson'), `${JSON.stringify(record)}\n`);
    },
    /** The transactions saved before `slot` (a later one was written just before a crash). */
    readTransactions(slot: number): LedgerTransaction[] {
      if (!existsSync(file('transactions.ndjson'))) return [];
      const records: LedgerTransaction[] = [];
      for (const line of readFileSync(file('transactions.ndjson'), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const record = JSON.parse(line) as LedgerTransaction;
          if (record.slot < slot) records.push(record);
        } catch {
          // A torn last line from a crash mid-write.
        }
      }
      return records;
    },
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;

/** A signer from a 32-byte seed (kept on disk as a Solana CLI-style 64-byte key). */
export function signerFromSeed(seed: Uint8Array): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(seed, true);
}

/** The 64 bytes (secret seed then public key) a Solana CLI key file holds. */
export function keyFileBytes(seed: Uint8Array, signer: KeyPairSigner): number[] {
  return [...seed, ...getBase58Encoder().encode(signer.address)];
}
