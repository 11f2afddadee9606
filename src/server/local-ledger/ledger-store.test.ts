import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerStore, type LedgerMeta, type SavedAccount } from './ledger-store';

const meta = (slot: number): LedgerMeta => ({
  genesisHash: 'genesis',
  slot,
  blockhashes: [{ hash: `hash-${slot}`, height: slot }],
  faucet: [1, 2, 3],
});
const account = (lamports: string): SavedAccount => ({
  lamports,
  data: '',
  owner: '11111111111111111111111111111111',
  executable: false,
});

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

  it('writes accounts and chain position as one file, so a crash cannot keep one without the other', () => {
    const dir = newDir();
    const store = createLedgerStore(dir);
    expect(store.read()).toBeNull();
    store.write({ a: account('5') }, meta(7));
    store.write({ a: account('9') }, meta(8));
    expect(readdirSync(dir).sort()).toEqual(['state.json']);
    expect(store.read()).toEqual({ accounts: { a: account('9') }, meta: meta(8) });
  });

  it('still reads a ledger saved in the two files of earlier versions, and moves it to one on the next write', () => {
    const dir = newDir();
    writeFileSync(path.join(dir, 'accounts.json'), JSON.stringify({ a: account('5') }));
    writeFileSync(path.join(dir, 'meta.json'), JSON.stringify(meta(3)));
    const store = createLedgerStore(dir);
    expect(store.read()).toEqual({ accounts: { a: account('5') }, meta: meta(3) });
    store.write({ a: account('6') }, meta(4));
    expect(store.read()).toEqual({ accounts: { a: account('6') }, meta: meta(4) });
  });
});
