/**
 * What every JSON-RPC method of the local ledger shares: the zod schemas of a node's params and
 * configs, the parse that turns a bad one into the node's -32602 'Invalid params', the decoding of
 * base58/base64 strings, and the `context.slot` wrapper of results.
 */
import { getBase58Encoder, getBase64Encoder, isAddress } from '@solana/kit';
import { z } from 'zod';
import { RpcError } from './json-rpc';
import type { LocalLedger } from './ledger';

export const invalidParams = (detail: string) => new RpcError(-32602, `Invalid params: ${detail}`);

export const AddressSchema = z.string().refine(isAddress, 'Invalid param: WrongSize');
export const CommitmentSchema = z.enum([
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
]);
export const BaseConfig = z
  .object({ commitment: CommitmentSchema.optional(), minContextSlot: z.number().int().optional() })
  .loose();

export function params<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? []);
  if (!parsed.success) throw invalidParams(parsed.error.issues[0]?.message ?? 'bad params');
  return parsed.data;
}

/** A result with the node's `context` (the ledger's current slot). */
export const contextWrapper =
  (ledger: LocalLedger) =>
  <T>(value: T) => ({ context: { apiVersion: '2.2.0', slot: ledger.slot }, value });

export const decodeWire = (text: string, encoding: 'base58' | 'base64') => {
  try {
    return encoding === 'base58'
      ? Uint8Array.from(getBase58Encoder().encode(text))
      : Uint8Array.from(getBase64Encoder().encode(text));
  } catch {
    throw invalidParams(`invalid ${encoding} encoding`);
  }
};
