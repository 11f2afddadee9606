/**
 * The local ledger on disk (DATA_DIR/local-ledger), saved a step at a time:
 *
 * - `transactions.ndjson`: every processed transaction, one a line, appended first;
 * - `journal-<n>.ndjson`: one line per step of the ledger (a transaction, a block, an account the
 *   genesis or a test wrote): the accounts it changed, the slot, the blockhashes made and how many
 *   transactions count so far. A transaction costs a line of a few kB, whatever the ledger holds;
 * - `state.json`: every account and the meta (chain position, blockhash window, faucet key) as of
 *   the start of journal n, which it names. When the journal grows past a bound, the state is
 *   written whole to a new `state.json` (a temporary file and one rename) naming journal n+1, and
 *   journal n is deleted.
 *
 * A crash leaves the state before a step or after it, never half of one: a torn last journal line
 * is cut off, and a transaction line beyond the count the journal reached (appended just before
 * the crash) is dropped. Ledgers saved by earlier versions (`state.json` without a journal, or
 * `accounts.json` + `meta.json`, both rewritten whole per transaction) are still read: there, a
 * transaction counts when its slot is below the saved slot.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
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

export interface BlockhashEntry {
  hash: string;
  height: number;
}

export interface LedgerMeta {
  genesisHash: string;
  slot: number;
  /** Recent blockhashes, newest last, with the block height each was made at. */
  blockhashes: BlockhashEntry[];
  faucet: number[];
  /** Transactions processed: the first this many of transactions.ndjson (absent in older saves). */
  transactionCount?: number;
}

/** An account as saved: lamports as a decimal string, data in base64. */
export interface SavedAccount {
  lamports: string;
  data: string;
  owner: string;
  executable: boolean;
}

/** What one step changed: accounts written (null: gone), and the meta after it. */
export interface LedgerStep {
  accounts: Record<string, SavedAccount | null>;
  meta: LedgerMeta;
  /** The transaction the step processed, if any. */
  transaction?: LedgerTransaction;
}

/** The blockhashes a ledger keeps (the window a node accepts, and some older ones). */
export const KEPT_BLOCKHASHES = 200;

/** A journal line. */
interface JournalEntry {
  accounts: Record<string, SavedAccount | null>;
  slot: number;
  /** Blockhashes made since the previous line. */
  blockhashes: BlockhashEntry[];
  transactionCount: number;
}

interface Snapshot {
  meta: LedgerMeta;
  accounts: Record<string, SavedAccount>;
  /** The journal that continues this state (absent in older saves: none). */
  journal?: number;
}

export interface LedgerStoreOptions {
  /** The journal is folded into a new state.json once it holds this many bytes. */
  compactAfterBytes?: number;
}

/** The state read back: every account, the meta, the transactions that count, oldest first. */
export interface LoadedLedger {
  accounts: Map<string, SavedAccount>;
  meta: LedgerMeta;
  transactions: LedgerTransaction[];
}

const DEFAULT_COMPACT_AFTER_BYTES = 16 * 1024 * 1024;
const STATE = 'state.json';
const TRANSACTIONS = 'transactions.ndjson';
const journalName = (n: number) => `journal-${n}.ndjson`;

export function createLedgerStore(dir: string, options: LedgerStoreOptions = {}) {
  mkdirSync(dir, { recursive: true });
  const compactAfterBytes = options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES;
  const file = (name: string) => path.join(dir, name);
  const writeWhole = (name: string, data: string) => {
    writeFileSync(`${file(name)}.tmp`, data);
    renameSync(`${file(name)}.tmp`, file(name));
  };

  // What is on disk, kept to fold the journal into a new state.json without reading it back.
  let accounts = new Map<string, SavedAccount>();
  let meta: LedgerMeta | undefined;
  let journal = 0;
  let journalBytes = 0;

  /** The saved state before its journal (null: nothing saved here). */
  function readSnapshot(): Snapshot | null {
    if (existsSync(file(STATE))) return JSON.parse(readFileSync(file(STATE), 'utf8')) as Snapshot;
    if (!existsSync(file('accounts.json')) || !existsSync(file('meta.json'))) return null;
    return {
      accounts: JSON.parse(readFileSync(file('accounts.json'), 'utf8')) as Record<string, SavedAccount>,
      meta: JSON.parse(readFileSync(file('meta.json'), 'utf8')) as LedgerMeta,
    };
  }

  /** Applies the journal's whole lines; a torn last line (a crash mid-append) is cut off. */
  function replayJournal(state: LedgerMeta): void {
    const name = file(journalName(journal));
    if (!existsSync(name)) return;
    const text = readFileSync(name);
    let offset = 0;
    while (offset < text.length) {
      const end = text.indexOf(10, offset);
      if (end < 0) break; // no newline: torn
      let entry: JournalEntry;
      try {
        entry = JSON.parse(text.subarray(offset, end).toString('utf8')) as JournalEntry;
      } catch {
        break;
      }
      applyEntry(state, entry);
      offset = end + 1;
    }
    if (offset < text.length) truncateSync(name, offset);
    journalBytes = offset;
  }

  function applyEntry(state: LedgerMeta, entry: JournalEntry): void {
    for (const [key, account] of Object.entries(entry.accounts)) {
      if (account) accounts.set(key, account);
      else accounts.delete(key);
    }
    state.slot = entry.slot;
    state.blockhashes.push(...entry.blockhashes);
    if (state.blockhashes.length > KEPT_BLOCKHASHES) {
      state.blockhashes.splice(0, state.blockhashes.length - KEPT_BLOCKHASHES);
    }
    state.transactionCount = entry.transactionCount;
  }

  /**
   * The transactions that count: the first `count` whole lines, or (older saves, no count) those
   * below `slot`. Lines beyond them (appended just before a crash) are removed from the file.
   */
  function readTransactions(count: number | undefined, slot: number): LedgerTransaction[] {
    if (!existsSync(file(TRANSACTIONS))) return [];
    const records: LedgerTransaction[] = [];
    let dropped = false;
    for (const line of readFileSync(file(TRANSACTIONS), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let record: LedgerTransaction;
      try {
        record = JSON.parse(line) as LedgerTransaction;
      } catch {
        dropped = true; // a torn line from a crash mid-write
        continue;
      }
      const counts = count === undefined ? record.slot < slot : records.length < count;
      if (counts) records.push(record);
      else dropped = true;
    }
    if (dropped) writeWhole(TRANSACTIONS, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    return records;
  }

  /** Writes the whole state as of now to a new state.json that starts journal `next`. */
  function writeSnapshot(next: number): void {
    if (!meta) throw new Error('the ledger store has no state to write');
    const snapshot: Snapshot = { meta, accounts: Object.fromEntries(accounts), journal: next };
    writeWhole(STATE, JSON.stringify(snapshot));
    const previous = journal;
    journal = next;
    journalBytes = 0;
    if (previous !== next && existsSync(file(journalName(previous)))) unlinkSync(file(journalName(previous)));
  }

  return {
    /** The saved ledger, or null for a ledger never saved here. */
    read(): LoadedLedger | null {
      const snapshot = readSnapshot();
      if (!snapshot) return null;
      accounts = new Map(Object.entries(snapshot.accounts));
      const state: LedgerMeta = { ...snapshot.meta, blockhashes: [...snapshot.meta.blockhashes] };
      journal = snapshot.journal ?? 0;
      journalBytes = 0;
      replayJournal(state);
      const transactions = readTransactions(state.transactionCount, state.slot);
      state.transactionCount = transactions.length;
      meta = state;
      // Journals of other generations: the one before a snapshot that was written just before a crash.
      for (const name of readdirSync(dir)) {
        if (/^journal-\d+\.ndjson$/.test(name) && name !== journalName(journal)) unlinkSync(file(name));
      }
      // An older save, or a long journal: start from one state.json and an empty journal.
      if (snapshot.journal === undefined || journalBytes > compactAfterBytes) {
        writeSnapshot(journal + 1);
        for (const name of ['accounts.json', 'meta.json']) if (existsSync(file(name))) unlinkSync(file(name));
      }
      return { accounts: new Map(accounts), meta: cloneMeta(state), transactions };
    },

    /** Starts a new ledger here: its first state.json (an empty journal follows). */
    create(initial: LedgerMeta): void {
      accounts = new Map();
      meta = cloneMeta({ ...initial, transactionCount: 0 });
      journal = 0;
      writeSnapshot(1);
    },

    /**
     * Saves one step: its transaction (if any) appended to the history, then one journal line with
     * the accounts it changed and the chain position after it. Folds the journal into a new
     * state.json now and then (every `compactAfterBytes` of journal).
     */
    commit(step: LedgerStep): void {
      if (!meta) throw new Error('the ledger store was neither read nor created');
      const known = meta.blockhashes[meta.blockhashes.length - 1]?.height ?? -1;
      const transactionCount = (meta.transactionCount ?? 0) + (step.transaction ? 1 : 0);
      if (step.transaction) appendFileSync(file(TRANSACTIONS), `${JSON.stringify(step.transaction)}\n`);
      const entry: JournalEntry = {
        accounts: step.accounts,
        slot: step.meta.slot,
        blockhashes: step.meta.blockhashes.filter((b) => b.height > known),
        transactionCount,
      };
      const line = `${JSON.stringify(entry)}\n`;
      appendFileSync(file(journalName(journal)), line);
      journalBytes += Buffer.byteLength(line);
      applyEntry(meta, entry);
      if (journalBytes > compactAfterBytes) writeSnapshot(journal + 1);
    },

    /** Folds the journal into a new state.json now (at close, so the next start reads one file). */
    compact(): void {
      if (meta && journalBytes > 0) writeSnapshot(journal + 1);
    },
  };
}

function cloneMeta(meta: LedgerMeta): LedgerMeta {
  return { ...meta, blockhashes: [...meta.blockhashes], faucet: [...meta.faucet] };
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
