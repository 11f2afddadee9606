import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';

/** 32 random bytes in base58 (kit's codec): unguessable, URL-safe, and a valid Solana Pay reference key. */
export function newPaymentReference(): string {
  return getBase58Decoder().decode(randomBytes(32));
}
