import { signLink, verifyLink } from '#server/lib/signed-links';

/**
 * The device cookie (OWASP "slow down online guessing attacks with device cookies"): a signed,
 * httpOnly cookie a browser gets when it signs in, naming the accounts that signed in on it (the
 * last few), each for DEVICE_COOKIE_DAYS. Such a device is the owner's: it is never asked for a
 * sign-in code because others guessed at the account or failed from its address, and its
 * password-reset requests are never limited by others' requests. Only /api/auth sees it (its
 * Path), so pages and the page cache never do.
 */

export const DEVICE_COOKIE_NAME = 'aelo-device';
export const DEVICE_COOKIE_DAYS = 30;
const PURPOSE = 'sign-in-device';
/** Accounts remembered per device (a shared family computer); the oldest is dropped first. */
const MAX_ACCOUNTS = 5;
const PATH = '/api/auth';

export interface DeviceCookies {
  /** The accounts (user ids) this request's device signed in on within DEVICE_COOKIE_DAYS. */
  accountsOf(headers: Headers): string[];
  /** The Set-Cookie value that adds (or renews) `userId` on this request's device. */
  remember(headers: Headers, userId: string, now?: Date): string;
}

export function createDeviceCookies(options: { secret: string; secure: boolean }): DeviceCookies {
  const name = options.secure ? `__Secure-${DEVICE_COOKIE_NAME}` : DEVICE_COOKIE_NAME;
  const maxAgeSeconds = DEVICE_COOKIE_DAYS * 86_400;

  /** The cookie's valid entries, newest first: `<userId>:<expires>.<mac>`, joined by `~`. */
  function entriesOf(headers: Headers, now = new Date()): { userId: string; token: string }[] {
    const raw = readCookie(headers.get('cookie'), name);
    if (!raw) return [];
    const entries: { userId: string; token: string }[] = [];
    for (const part of raw.split('~').slice(0, MAX_ACCOUNTS)) {
      const colon = part.indexOf(':');
      if (colon <= 0) continue;
      const userId = part.slice(0, colon);
      const token = part.slice(colon + 1);
      if (verifyLink(options.secret, PURPOSE, userId, token, now)) entries.push({ userId, token });
    }
    return entries;
  }

  return {
    accountsOf: (headers) => entriesOf(headers).map((e) => e.userId),

    remember(headers, userId, now = new Date()) {
      const token = signLink(options.secret, PURPOSE, userId, new Date(now.getTime() + maxAgeSeconds * 1000));
      const others = entriesOf(headers, now).filter((e) => e.userId !== userId);
      const value = [{ userId, token }, ...others]
        .slice(0, MAX_ACCOUNTS)
        .map((e) => `${e.userId}:${e.token}`)
        .join('~');
      return `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=${PATH}; HttpOnly; SameSite=Strict${
        options.secure ? '; Secure' : ''
      }`;
    },
  };
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
