import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (API keys the admin settings store): AES-256-GCM with the server's
 * ENCRYPTION_KEY, a fresh 12-byte IV per value, and a context string bound in as additional
 * authenticated data (e.g. `stripe/secret_key`), so a value copied into another row does not
 * decrypt.
 *
 * Format (versioned, so the scheme can change without guessing): `v1.<iv>.<tag>.<ciphertext>`,
 * each part base64url. A new scheme gets `v2.` and decryptSecret learns both.
 */

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

function assertKey(key: Buffer): void {
  if (key.length !== 32) throw new SecretBoxError('the encryption key must be 32 bytes');
}

export function encryptSecret(key: Buffer, plaintext: string, context: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plaintext; SecretBoxError when the value is malformed, of another key or of another context. */
export function decryptSecret(key: Buffer, sealed: string, context: string): string {
  assertKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('unknown secret format');
  const [, ivText, tagText, dataText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  const data = Buffer.from(dataText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('malformed secret');
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the secret does not decrypt with this key');
  }
}

/** For display: `sk_t••••••••4242` (never more than the last 4 characters). */
export function maskSecret(value: string): string {
  if (value.length <= 8) return '••••••••';
  return `${value.slice(0, 4)}••••••••${value.slice(-4)}`;
}
