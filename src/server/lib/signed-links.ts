import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that carry their own permission: `<expires>.<hmac>` over a purpose, a subject and the
 * expiry, keyed by the server's secret. A tampered, foreign or expired token verifies as false.
 */

function mac(secret: string, purpose: string, subject: string, expires: number): string {
  return createHmac('sha256', secret).update(`${purpose}\n${subject}\n${expires}`).digest('base64url');
}

export function signLink(secret: string, purpose: string, subject: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${expires}.${mac(secret, purpose, subject, expires)}`;
}

export function verifyLink(
  secret: string,
  purpose: string,
  subject: string,
  token: string,
  now = new Date(),
): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(mac(secret, purpose, subject, expires));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
