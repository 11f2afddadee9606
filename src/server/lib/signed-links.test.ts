import { describe, expect, it } from 'vitest';
import { signLink, verifyLink } from './signed-links';

describe('signed links', () => {
  const secret = 'a-secret-of-the-server-long-enough';
  const later = new Date(Date.now() + 60_000);

  it('verifies its own token for the same purpose and subject until it expires', () => {
    const token = signLink(secret, 'order', 'id-1', later);
    expect(verifyLink(secret, 'order', 'id-1', token)).toBe(true);
    expect(verifyLink(secret, 'order', 'id-1', token, new Date(later.getTime() + 1000))).toBe(false);
  });

  it('refuses another subject, purpose, secret, a changed expiry or a malformed token', () => {
    const token = signLink(secret, 'order', 'id-1', later);
    expect(verifyLink(secret, 'order', 'id-2', token)).toBe(false);
    expect(verifyLink(secret, 'invoice', 'id-1', token)).toBe(false);
    expect(verifyLink(`${secret}x`, 'order', 'id-1', token)).toBe(false);
    const [expires, sig] = token.split('.');
    expect(verifyLink(secret, 'order', 'id-1', `${Number(expires) + 999}.${sig}`)).toBe(false);
    expect(verifyLink(secret, 'order', 'id-1', 'nonsense')).toBe(false);
    expect(verifyLink(secret, 'order', 'id-1', '')).toBe(false);
  });
});
