/**
 * What a transaction costs on disk: the accounts it changed and its record, appended; never the
 * whole state again (at 2,000 accounts, state.json is over 200 kB). A restart still finds every
 * account and every transaction, also after the journal was folded into a new state.json.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalLedger } from './ledger';

const ACCOUNTS = 2_000;
const TRANSACTIONS = 20;

/** Every file of the ledger's directory with its size and identity (a rewrite makes a new inode). */
function files(dir: string): Map<string, { size: number; ino: number; mtimeMs: number }> {
  const out = new Map<string, { size: number; ino: number; mtimeMs: number }>();
  for (const name of readdirSync(dir)) {
    const { size, ino, mtimeMs } = statSync(path.join(dir, name));
    out.set(name, { size, ino, mtimeMs });
  }
  return out;
}

/** Bytes this process has written through system calls (Linux: /proc/self/io). */
function bytesWritten(): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  return Number(/^wchar: (\d+)$/m.exec(io)?.[1]);
}

const close = (ledger: LocalLedger) => (ledger as { close?: () => void }).close?.();

describe('saving the local ledger', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('appends what a transaction changed instead of rewriting the whole state', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-saving-'));
    dirs.push(dir);
    const { ledger } = await LocalLedger.open(dir);
    const holders: Address[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const holder = (await generateKeyPairSigner()).address;
      holders.push(holder);
      ledger.setAccount({
        address: holder,
        lamports: 1_000_000n + BigInt(i),
        data: new Uint8Array(64).fill(i % 256),
        owner: SYSTEM_PROGRAM_ADDRESS,
        executable: false,
      });
    }
    ledger.save();
    const wholeState = [...files(dir).values()].reduce((sum, f) => sum + f.size, 0);
    expect(wholeState).toBeGreaterThan(200_000);

    const before = files(dir);
    const writtenBefore = bytesWritten();
    const recipients: Address[] = [];
    const signatures: string[] = [];
    for (let i = 0; i < TRANSACTIONS; i++) {
      const to = (await generateKeyPairSigner()).address;
      recipients.push(to);
      signatures.push(await ledger.airdrop(to, 1_000_000_000n + BigInt(i)));
    }
    const after = files(dir);
    const written = bytesWritten() - writtenBefore;
    // The state as it was is not written again (a rewrite may reuse the inode: its time tells)...
    for (const [name, was] of before) {
      if (name.startsWith('state')) expect(after.get(name), name).toEqual(was);
    }
    // ...and what is written is a few kB per transaction, not the 200 kB state each time.
    expect(written / TRANSACTIONS).toBeLessThan(16_000);
    close(ledger);

    const { ledger: reopened, isNew } = await LocalLedger.open(dir);
    expect(isNew).toBe(false);
    holders.forEach((holder, i) => expect(reopened.getBalance(holder)).toBe(1_000_000n + BigInt(i)));
    recipients.forEach((to, i) => expect(reopened.getBalance(to)).toBe(1_000_000_000n + BigInt(i)));
    for (const signature of signatures) expect(reopened.getTransaction(signature)?.err).toBeNull();
    expect(reopened.slot).toBe(ledger.slot);
    close(reopened);
  }, 120_000);
});
