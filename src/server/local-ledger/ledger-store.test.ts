import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLedgerStore,
  type LedgerMeta,
  type LedgerTransaction,
  type SavedAccount,
} from './ledger-store';

const meta = (slot: number, transactionCount?: number): LedgerMeta => ({
  genesisHash: 'genesis',
  slot,
  blockhashes: Array.from({ length: slot }, (_, i) => ({ hash: `hash-${i + 1}`, height: i + 1 })),
  faucet: [1, 2, 3],
  ...(transactionCount === undefined ? {} : { transactionCount }),
});
const account = (lamports: string): SavedAccount => ({
  lamports,
  data: '',
  owner: '11111111111111111111111111111111',
  executable: false,
});
const transaction = (signature: string, slot: number) =>
  ({ signature, slot, accountKeys: [], logs: [] }) as unknown as LedgerTransaction;

describe('the local ledger on disk', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-store-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('journals each step and reads it back after a restart', () => {
    const dir = newDir();
    const store = createLedgerStore(dir);
    expect(store.read()).toBeNull();
    store.create(meta(1));
    store.commit({ accounts: { a: account('5'), b: account('1') }, meta: meta(2) });
    store.commit({
      accounts: { a: account('9'), b: null },
      meta: meta(3),
      transaction: transaction('s1', 2),
    });
    store.commit({ accounts: { c: account('3') }, meta: meta(3), transaction: transaction('s2', 3) });
    expect(readdirSync(dir).sort()).toEqual(['journal-1.ndjson', 'state.json', 'transactions.ndjson']);

    const loaded = createLedgerStore(dir).read();
    expect(Object.fromEntries(loaded!.accounts)).toEqual({ a: account('9'), c: account('3') });
    expect(loaded!.meta).toEqual(meta(3, 2));
    expect(loaded!.transactions.map((t) => t.signature)).toEqual(['s1', 's2']);
  });

  it('drops a step torn by a crash, and a transaction whose step was never written', () => {
    const dir = newDir();
    const store = createLedgerStore(dir);
    store.create(meta(1));
    store.commit({ accounts: { a: account('5') }, meta: meta(2), transaction: transaction('s1', 1) });
    // A crash after the transaction was appended, halfway through its journal line.
    appendFileSync(path.join(dir, 'transactions.ndjson'), `${JSON.stringify(transaction('s2', 2))}\n`);
    appendFileSync(path.join(dir, 'journal-1.ndjson'), '{"accounts":{"a":{"lampo');

    const reopened = createLedgerStore(dir);
    const loaded = reopened.read();
    expect(Object.fromEntries(loaded!.accounts)).toEqual({ a: account('5') });
    expect(loaded!.transactions.map((t) => t.signature)).toEqual(['s1']);
    // Both files were cut back, so the next step appends whole lines.
    reopened.commit({ accounts: { a: account('7') }, meta: meta(3), transaction: transaction('s3', 2) });
    const again = createLedgerStore(dir).read();
    expect(Object.fromEntries(again!.accounts)).toEqual({ a: account('7') });
    expect(again!.transactions.map((t) => t.signature)).toEqual(['s1', 's3']);
    expect(again!.meta.slot).toBe(3);
  });

  it('folds the journal into a new state file once it is long, and at close', () => {
    const dir = newDir();
    const store = createLedgerStore(dir, { compactAfterBytes: 2_000 });
    store.create(meta(1));
    for (let i = 0; i < 40; i++) {
      store.commit({ accounts: { [`k${i}`]: account(String(i)) }, meta: meta(2 + i) });
    }
    const journals = readdirSync(dir).filter((name) => name.startsWith('journal-'));
    expect(journals).toHaveLength(1);
    expect(journals[0]).not.toBe('journal-1.ndjson');
    store.compact();
    const state = JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8')) as { journal: number };
    expect(readdirSync(dir)).not.toContain(`journal-${state.journal}.ndjson`);

    const loaded = createLedgerStore(dir).read();
    expect(loaded!.accounts.size).toBe(40);
    expect(loaded!.accounts.get('k39')).toEqual(account('39'));
    expect(loaded!.meta.slot).toBe(41);
    expect(loaded!.meta.blockhashes.at(-1)).toEqual({ hash: 'hash-41', height: 41 });
  });

  it('still reads a ledger saved whole per transaction by earlier versions', () => {
    const dir = newDir();
    writeFileSync(
      path.join(dir, 'state.json'),
      JSON.stringify({ meta: meta(4), accounts: { a: account('6') } }),
    );
    // Slots 2 and 3 were saved; the one at slot 4 was appended just before a crash.
    writeFileSync(
      path.join(dir, 'transactions.ndjson'),
      [transaction('s1', 2), transaction('s2', 3), transaction('s3', 4)]
        .map((t) => `${JSON.stringify(t)}\n`)
        .join(''),
    );
    const loaded = createLedgerStore(dir).read();
    expect(Object.fromEntries(loaded!.accounts)).toEqual({ a: account('6') });
    expect(loaded!.transactions.map((t) => t.signature)).toEqual(['s1', 's2']);
    expect(loaded!.meta.transactionCount).toBe(2);
  });

  it('still reads a ledger saved in the two files of earlier versions', () => {
    const dir = newDir();
    writeFileSync(path.join(dir, 'accounts.json'), JSON.stringify({ a: account('5') }));
    writeFileSync(path.join(dir, 'meta.json'), JSON.stringify(meta(3)));
    const store = createLedgerStore(dir);
    expect(Object.fromEntries(store.read()!.accounts)).toEqual({ a: account('5') });
    store.commit({ accounts: { a: account('6') }, meta: meta(4) });
    const loaded = createLedgerStore(dir).read();
    expect(Object.fromEntries(loaded!.accounts)).toEqual({ a: account('6') });
    expect(loaded!.meta.slot).toBe(4);
  });
});
