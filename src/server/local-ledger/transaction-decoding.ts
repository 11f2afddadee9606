/**
 * Transactions as the local ledger reads them: wire bytes decoded with kit's codecs into what the
 * ledger records (signature, version, account keys including those loaded from address lookup
 * tables, instructions), and the fee a node charges for a message.
 */
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
  type Transaction,
} from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';

export const LAMPORTS_PER_SIGNATURE = 5000n;
const DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_COMPUTE_UNITS = 1_400_000n;

/** Bytes that are not a transaction, or not one this ledger can decode. */
export class MalformedTransaction extends Error {}

export interface DecodedTransaction {
  transaction: Transaction;
  signature: string;
  version: 'legacy' | 0;
  numSignatures: number;
  recentBlockhash: string;
  /** Static keys, then keys loaded from lookup tables (writable, then readonly). */
  accountKeys: Address[];
  loaded: { writable: Address[]; readonly: Address[] };
  instructions: { programId: string; data: Uint8Array }[];
}

type CompiledMessage = ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;
type SupportedMessage = Extract<CompiledMessage, { version: 'legacy' | 0 }>;

const base58Decoder = getBase58Decoder();

function lookupTableAddresses(data: Uint8Array): Address[] {
  // Address lookup table layout: a 56-byte header, then 32-byte addresses.
  const keys: Address[] = [];
  for (let at = 56; at + 32 <= data.length; at += 32) {
    keys.push(base58Decoder.decode(data.subarray(at, at + 32)) as Address);
  }
  return keys;
}

function instructionsOf(message: SupportedMessage, keys: readonly string[]) {
  return message.instructions.map((ix) => ({
    programId: keys[ix.programAddressIndex] ?? '',
    data: Uint8Array.from(ix.data ?? []),
  }));
}

function isSupported(message: CompiledMessage): message is SupportedMessage {
  return message.version === 'legacy' || message.version === 0;
}

/** Decodes wire bytes; `lookupTable` reads a lookup table account's data (null when absent). */
export function decodeTransaction(
  wire: Uint8Array,
  lookupTable: (key: Address) => Uint8Array | null,
): DecodedTransaction {
  let transaction: Transaction;
  let message: CompiledMessage;
  try {
    transaction = getTransactionDecoder().decode(wire);
    message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  } catch (err) {
    throw new MalformedTransaction(err instanceof Error ? err.message : 'cannot decode the transaction');
  }
  if (!isSupported(message)) {
    throw new MalformedTransaction(`transaction version ${String(message.version)} is not supported`);
  }
  const first = Object.values(transaction.signatures)[0];
  if (!first) throw new MalformedTransaction('the transaction has no signature');
  const loaded = { writable: [] as Address[], readonly: [] as Address[] };
  if (message.version === 0) {
    for (const lookup of message.addressTableLookups ?? []) {
      const data = lookupTable(lookup.lookupTableAddress);
      const keys = data ? lookupTableAddresses(data) : [];
      for (const i of lookup.writableIndexes) if (keys[i]) loaded.writable.push(keys[i]);
      for (const i of lookup.readonlyIndexes) if (keys[i]) loaded.readonly.push(keys[i]);
    }
  }
  const accountKeys = [...message.staticAccounts, ...loaded.writable, ...loaded.readonly];
  return {
    transaction,
    signature: base58Decoder.decode(first),
    version: message.version,
    numSignatures: message.header.numSignerAccounts,
    recentBlockhash: message.lifetimeToken,
    accountKeys,
    loaded,
    instructions: instructionsOf(message, accountKeys),
  };
}

/** The fee a node charges: 5,000 lamports a signature plus the priority fee the message sets. */
export function transactionFee(decoded: Pick<DecodedTransaction, 'numSignatures' | 'instructions'>): bigint {
  let microLamportsPerUnit = 0n;
  let unitLimit: bigint | undefined;
  let otherInstructions = 0n;
  for (const ix of decoded.instructions) {
    if (ix.programId !== COMPUTE_BUDGET_PROGRAM_ADDRESS) {
      otherInstructions += 1n;
      continue;
    }
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === 2 && ix.data.length >= 5) unitLimit = BigInt(view.getUint32(1, true));
    if (ix.data[0] === 3 && ix.data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true);
  }
  const limit = unitLimit ?? otherInstructions * DEFAULT_COMPUTE_UNITS_PER_INSTRUCTION;
  const units = limit > MAX_COMPUTE_UNITS ? MAX_COMPUTE_UNITS : limit;
  const priority = (microLamportsPerUnit * units + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE * BigInt(decoded.numSignatures) + priority;
}

/** getFeeForMessage: the fee for message bytes, or null when they are not a message. */
export function messageFee(messageBytes: Uint8Array): bigint | null {
  try {
    const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
    if (!isSupported(message)) return null;
    return transactionFee({
      numSignatures: message.header.numSignerAccounts,
      instructions: instructionsOf(message, message.staticAccounts),
    });
  } catch {
    return null;
  }
}
