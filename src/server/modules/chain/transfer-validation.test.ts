import { getBase58Decoder } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { TOKEN_2022_PROGRAM_ADDRESS } from '@solana-program/token-2022';
import { describe, expect, it } from 'vitest';
import { validateTransfer, type FetchedTransaction } from './transfer-validation';

const PAYER = 'Payer111111111111111111111111111111111111111';
const SHOP = 'Shop1111111111111111111111111111111111111111';
const REF = 'Ref11111111111111111111111111111111111111111';
const MINT = 'Mint111111111111111111111111111111111111111';
const OTHER_MINT = 'Other11111111111111111111111111111111111111';
const SHOP_ATA = 'ShopAta111111111111111111111111111111111111';

function solTx(
  received: bigint,
  overrides: Partial<NonNullable<FetchedTransaction['meta']>> = {},
): FetchedTransaction {
  return {
    meta: {
      err: null,
      preBalances: [10_000n, 500n, 0n, 1n],
      postBalances: [10_000n - received - 5n, 500n + received, 0n, 1n],
      ...overrides,
    },
    transaction: {
      message: {
        accountKeys: [PAYER, SHOP, REF, SYSTEM_PROGRAM_ADDRESS],
        instructions: [{ accounts: [0, 1, 2] }],
      },
    },
  };
}

function tokenTx(mint: string, received: bigint): FetchedTransaction {
  return {
    meta: {
      err: null,
      preBalances: [1n, 1n, 1n, 1n],
      postBalances: [1n, 1n, 1n, 1n],
      preTokenBalances: [{ accountIndex: 1, mint, owner: SHOP, uiTokenAmount: { amount: '100' } }],
      postTokenBalances: [
        { accountIndex: 1, mint, owner: SHOP, uiTokenAmount: { amount: String(100n + received) } },
      ],
    },
    transaction: {
      message: { accountKeys: [PAYER, SHOP_ATA, REF, MINT], instructions: [{ accounts: [0, 1, 0, 2] }] },
    },
  };
}

const sol = { recipient: SHOP, amount: 1_000n, reference: REF };
const aelo = { ...sol, token: { mint: MINT, recipientTokenAccount: SHOP_ATA } };

describe('validateTransfer (the rules of @solana/pay validateTransfer)', () => {
  it('accepts a SOL transfer of at least the amount, naming the reference', () => {
    expect(validateTransfer(solTx(1_000n), sol)).toEqual({ ok: true, received: 1_000n, payer: PAYER });
    expect(validateTransfer(solTx(1_500n), sol)).toEqual({ ok: true, received: 1_500n, payer: PAYER });
  });
  it('needs the transaction and its meta', () => {
    expect(validateTransfer(null, sol)).toMatchObject({ ok: false, reason: 'missing' });
    expect(validateTransfer({ ...solTx(1_000n), meta: null }, sol)).toMatchObject({
      ok: false,
      reason: 'missing',
    });
  });
  it('refuses a failed transaction', () => {
    expect(validateTransfer(solTx(1_000n, { err: { InstructionError: [0, 'Custom'] } }), sol)).toMatchObject({
      ok: false,
      reason: 'failed',
    });
  });
  it('refuses a transaction whose instructions do not name the reference', () => {
    const tx = solTx(1_000n);
    tx.transaction.message.instructions = [{ accounts: [0, 1] }];
    expect(validateTransfer(tx, sol)).toMatchObject({ ok: false, reason: 'reference' });
  });
  it('finds the reference among addresses loaded from a lookup table (version 0)', () => {
    const tx = solTx(1_000n, {
      loadedAddresses: { writable: [], readonly: ['Loaded1111111111111111111111111111111111111'] },
    });
    tx.transaction.message.instructions = [{ accounts: [0, 1, 4] }];
    expect(
      validateTransfer(tx, { ...sol, reference: 'Loaded1111111111111111111111111111111111111' }),
    ).toMatchObject({ ok: true });
  });
  it('refuses a transfer that does not reach the recipient', () => {
    expect(
      validateTransfer(solTx(1_000n), { ...sol, recipient: 'Else111111111111111111111111111111111111111' }),
    ).toMatchObject({
      ok: false,
      reason: 'recipient',
    });
  });
  it('refuses less than the amount and says how much arrived', () => {
    expect(validateTransfer(solTx(999n), sol)).toMatchObject({ ok: false, reason: 'amount', received: 999n });
  });
  it('accepts an SPL transfer of the mint into the recipient token account', () => {
    expect(validateTransfer(tokenTx(MINT, 1_000n), aelo)).toEqual({
      ok: true,
      received: 1_000n,
      payer: PAYER,
    });
    expect(validateTransfer(tokenTx(MINT, 10n), aelo)).toMatchObject({
      ok: false,
      reason: 'amount',
      received: 10n,
    });
  });
  it('refuses a transfer of another mint', () => {
    expect(validateTransfer(tokenTx(OTHER_MINT, 1_000n), aelo)).toMatchObject({ ok: false, reason: 'mint' });
  });
  it('refuses a token account owned by someone else', () => {
    const tx = tokenTx(MINT, 1_000n);
    tx.meta!.postTokenBalances = [
      { accountIndex: 1, mint: MINT, owner: PAYER, uiTokenAmount: { amount: '1100' } },
    ];
    expect(validateTransfer(tx, aelo)).toMatchObject({ ok: false, reason: 'recipient' });
  });
  it('does not count SOL for a token payment', () => {
    expect(validateTransfer(solTx(10_000n), aelo)).toMatchObject({ ok: false, reason: 'recipient' });
  });

  describe('names the payer, where a refund goes', () => {
    const base58 = getBase58Decoder();
    const RELAYER = 'Relayer11111111111111111111111111111111111';
    const OWNER = 'Owner111111111111111111111111111111111111111';
    const PAYER_ATA = 'PayerAta11111111111111111111111111111111111';

    it('SOL: the source of the System transfer to the recipient, though another pays the fee', () => {
      const data = new Uint8Array(12);
      new DataView(data.buffer).setUint32(0, 2, true); // Transfer
      new DataView(data.buffer).setBigUint64(4, 1_000n, true);
      const tx: FetchedTransaction = {
        meta: {
          err: null,
          preBalances: [10_000_000n, 2_000n, 500n, 0n, 1n],
          postBalances: [10_000_000n - 5_000n, 1_000n, 1_500n, 0n, 1n],
        },
        transaction: {
          message: {
            accountKeys: [RELAYER, PAYER, SHOP, REF, SYSTEM_PROGRAM_ADDRESS],
            instructions: [{ programIdIndex: 4, accounts: [1, 2, 3], data: base58.decode(data) }],
          },
        },
      };
      expect(validateTransfer(tx, sol)).toEqual({ ok: true, received: 1_000n, payer: PAYER });
    });

    it('a token: the owner of the token account the amount left, not the fee payer', () => {
      const tx = tokenTx(MINT, 1_000n);
      tx.transaction.message.accountKeys = [RELAYER, SHOP_ATA, REF, MINT, PAYER_ATA];
      tx.meta!.preTokenBalances = [
        ...tx.meta!.preTokenBalances!,
        { accountIndex: 4, mint: MINT, owner: OWNER, uiTokenAmount: { amount: '5000' } },
      ];
      tx.meta!.postTokenBalances = [
        ...tx.meta!.postTokenBalances!,
        { accountIndex: 4, mint: MINT, owner: OWNER, uiTokenAmount: { amount: '4000' } },
      ];
      expect(validateTransfer(tx, aelo)).toEqual({ ok: true, received: 1_000n, payer: OWNER });
    });

    it('a token without the source balance: the authority of a Token-2022 TransferChecked to the recipient', () => {
      const tx = tokenTx(MINT, 1_000n);
      tx.transaction.message.accountKeys = [
        RELAYER,
        SHOP_ATA,
        REF,
        MINT,
        PAYER_ATA,
        OWNER,
        TOKEN_2022_PROGRAM_ADDRESS,
      ];
      const data = Uint8Array.of(12, 0xe8, 0x03, 0, 0, 0, 0, 0, 0, 6); // TransferChecked 1000, 6 decimals
      tx.transaction.message.instructions = [
        { programIdIndex: 6, accounts: [4, 3, 1, 5, 2], data: base58.decode(data) },
      ];
      expect(validateTransfer(tx, aelo)).toEqual({ ok: true, received: 1_000n, payer: OWNER });
    });
  });
});
