/**
 * getTransaction's answer for a kept transaction, in each encoding a node offers: `json` (the
 * message with base58 instruction data), `jsonParsed` (account keys with signer, writable and
 * source; instructions partially decoded), `base64` and `base58`, with the full meta.
 */
import {
  getBase58Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit';
import type { LedgerTransaction } from './ledger-store';
import { MalformedTransaction } from './transaction-decoding';

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

export function transactionResponse(
  record: LedgerTransaction,
  encoding: TransactionEncoding,
  maxVersion: number | undefined,
) {
  const meta = {
    err: record.err,
    status: record.err ? { Err: record.err } : { Ok: null },
    fee: BigInt(record.fee),
    preBalances: record.preBalances.map(BigInt),
    postBalances: record.postBalances.map(BigInt),
    innerInstructions: [],
    logMessages: record.logs,
    preTokenBalances: record.preTokenBalances,
    postTokenBalances: record.postTokenBalances,
    rewards: [],
    loadedAddresses: record.loadedAddresses,
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
  const base = {
    slot: record.slot,
    blockTime: record.blockTime,
    ...(maxVersion !== undefined ? { version: record.version } : {}),
    meta,
  };
  if (encoding === 'base64') return { ...base, transaction: [record.wire, 'base64'] };
  const bytes = Uint8Array.from(getBase64Encoder().encode(record.wire));
  if (encoding === 'base58') return { ...base, transaction: [getBase58Decoder().decode(bytes), 'base58'] };
  const decoded = decodeForJson(bytes);
  if (encoding === 'jsonParsed') {
    const staticCount = decoded.message.accountKeys.length;
    const { header } = decoded.message;
    const keys = record.accountKeys.map((pubkey, i) => ({
      pubkey,
      signer: i < header.numRequiredSignatures,
      writable:
        i < staticCount
          ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts ||
            (i >= header.numRequiredSignatures && i < staticCount - header.numReadonlyUnsignedAccounts)
          : record.loadedAddresses.writable.includes(pubkey),
      source: i < staticCount ? 'transaction' : 'lookupTable',
    }));
    return {
      ...base,
      transaction: {
        signatures: decoded.signatures,
        message: {
          accountKeys: keys,
          recentBlockhash: decoded.message.recentBlockhash,
          instructions: decoded.message.instructions.map((ix) => ({
            programId: record.accountKeys[ix.programIdIndex],
            accounts: ix.accounts.map((i) => record.accountKeys[i]),
            data: ix.data,
            stackHeight: null,
          })),
          ...(decoded.message.addressTableLookups
            ? { addressTableLookups: decoded.message.addressTableLookups }
            : {}),
        },
      },
    };
  }
  return { ...base, transaction: decoded };
}

/** A transaction in the RPC's `json` encoding (instruction data in base58). */
function decodeForJson(bytes: Uint8Array) {
  const transaction = getTransactionDecoder().decode(bytes);
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (message.version !== 'legacy' && message.version !== 0)
    throw new MalformedTransaction('unsupported version');
  const b58 = getBase58Decoder();
  return {
    signatures: Object.values(transaction.signatures).map((s) => (s ? b58.decode(s) : '1'.repeat(64))),
    message: {
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      accountKeys: message.staticAccounts as string[],
      recentBlockhash: message.lifetimeToken,
      instructions: message.instructions.map((ix) => ({
        programIdIndex: ix.programAddressIndex,
        accounts: [...(ix.accountIndices ?? [])],
        data: b58.decode(Uint8Array.from(ix.data ?? [])),
        stackHeight: null,
      })),
      ...(message.version === 0
        ? {
            addressTableLookups: (message.addressTableLookups ?? []).map((l) => ({
              accountKey: l.lookupTableAddress,
              writableIndexes: [...l.writableIndexes],
              readonlyIndexes: [...l.readonlyIndexes],
            })),
          }
        : {}),
    },
  };
}
