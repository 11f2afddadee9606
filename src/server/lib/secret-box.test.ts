import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, maskSecret, SecretBoxError } from './secret-box';

const key = randomBytes(32);

describe('secret-box', () => {
  it('round-trips with a fresh IV each time', () => {
    const a = encryptSecret(key, 'sk_test_123', 'stripe/secret_key');
    const b = encryptSecret(key, 'sk_test_123', 'stripe/secret_key');
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk_test_123');
    expect(decryptSecret(key, a, 'stripe/secret_key')).toBe('sk_test_123');
  });

  it('refuses another key, another context, a tampered value and unknown versions', () => {
    const sealed = encryptSecret(key, 'whsec_abc', 'stripe/webhook_secret');
    expect(() => decryptSecret(randomBytes(32), sealed, 'stripe/webhook_secret')).toThrow(SecretBoxError);
    expect(() => decryptSecret(key, sealed, 'stripe/secret_key')).toThrow(SecretBoxError);
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    parts[3] = data.toString('base64url');
    expect(() => decryptSecret(key, parts.join('.'), 'stripe/webhook_secret')).toThrow(SecretBoxError);
    expect(() => decryptSecret(key, `v2.${sealed.slice(3)}`, 'stripe/webhook_secret')).toThrow(
      SecretBoxError,
    );
    expect(() => decryptSecret(key, 'garbage', 'stripe/webhook_secret')).toThrow(SecretBoxError);
  });

  it('needs a 32-byte key', () => {
    expect(() => encryptSecret(randomBytes(16), 'x', 'c')).toThrow(SecretBoxError);
  });

  it('masks for display', () => {
    expect(maskSecret('sk_test_abcdefgh4242')).toBe('sk_t••••••••4242');
    expect(maskSecret('short')).toBe('••••••••');
  });
});
