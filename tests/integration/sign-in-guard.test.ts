/**
 * Sign-in under attack, through the real server behind a trusted proxy (X-Forwarded-For from
 * 127.0.0.1): guesses from one IPv6 /64 count as one client and are slowed; an account guessed at
 * more than SIGN_IN_ACCOUNT_CODE_AFTER times (from anywhere) asks, besides the right password, for
 * a one-time code mailed to its address, without telling a guesser whether a password was right;
 * a device the account signed in on before is never asked; a right password is never refused
 * because other accounts failed from the same address; password-reset mail is limited per
 * requester, and never refused to the owner's signed-in or recently signed-in device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ErrorBody } from '#common/errors';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { outboxLink } from '../helpers/outbox';
import { startShop, stopShop, type RunningShop } from '../helpers/shop-server';
import { TEST_ORIGIN } from '../helpers/test-app';

const PASSWORD = 'a long pass phrase 38';
const CODE_REQUIRED = 'SIGN_IN_CODE_REQUIRED';

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

describe.each(BACKENDS)('sign-in guard on %s', (backend) => {
  let shop: RunningShop;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    shop = await startShop({ backend, watcher: false, env: { TRUSTED_PROXIES: '127.0.0.1' } });
  });
  afterAll(async () => {
    if (shop) await stopShop(shop);
  });

  /** A browser on one device: keeps its cookies; each request comes from `ip` through the proxy. */
  function device(ip: string) {
    const cookies = new Map<string, string>();
    const request = async (method: 'GET' | 'POST', path: string, body?: unknown, from = ip) => {
      const headers: Record<string, string> = { origin: TEST_ORIGIN, 'x-forwarded-for': from };
      if (method === 'POST') headers['content-type'] = 'application/json';
      if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(`${shop.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        if (value === '' || /max-age=0/i.test(cookie)) cookies.delete(name);
        else cookies.set(name, value);
      }
      return res;
    };
    return {
      cookies,
      signIn: (email: string, password: string, code?: string, from?: string) =>
        request('POST', '/api/auth/sign-in/email', { email, password, ...(code ? { code } : {}) }, from),
      forgotPassword: (email: string, from?: string) =>
        request('POST', '/api/auth/forgot-password', { email }, from),
      signOut: () => request('POST', '/api/auth/sign-out'),
      me: async () =>
        ((await (await request('GET', '/api/auth/me')).json()) as { user: { email: string } | null }).user,
    };
  }

  async function errorOf(res: Response): Promise<ErrorBody['error']> {
    return ((await res.json()) as ErrorBody).error;
  }

  /** The mails to `email` now in the outbox (the mail sender's pass run first). */
  async function mailsTo(email: string): Promise<number> {
    await shop.t.deps.mail.sendDue();
    const row = await shop.t.deps.database.db
      .selectFrom('mail_outbox')
      .select(sql<string>`count(*)`.as('n'))
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The newest sign-in code mailed to `email`, read from the outbox's .eml file. */
  async function mailedCode(email: string): Promise<string> {
    await shop.t.deps.mail.sendDue();
    const line = await outboxLink(shop.t.dataDir, email, /sign-in code is \d{6}/);
    return /\d{6}/.exec(line)![0];
  }

  it('slows 60 wrong admin passwords from one /64, then asks every new device for a mailed code; the owner is never locked out', async () => {
    const email = uniqueEmail('admin');
    await shop.t.deps.auth.createUser({ email, password: PASSWORD, role: 'admin' });
    // The owner's laptop signed in before the attack.
    const laptop = device('203.0.113.38');
    expect((await laptop.signIn(email, PASSWORD)).status).toBe(200);
    await laptop.signOut();

    const attacker = device('2001:db8:38:1::1');
    const statuses: number[] = [];
    for (let i = 1; i <= 60; i++) {
      const res = await attacker.signIn(
        email,
        `guess number ${i}`,
        undefined,
        `2001:db8:38:1::${i.toString(16)}`,
      );
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await res.body?.cancel();
    }
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // One /64 is one client: five free failures, then each further one waits (1, 2, 4 ... s).
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(45);

    // A new device with the right password alone: the clear, coded answer, and a code is mailed.
    const mailsBefore = await mailsTo(email);
    const phone = device('198.51.100.38');
    const right = await phone.signIn(email, PASSWORD);
    expect(right.status).toBe(401);
    const rightError = await errorOf(right);
    expect(rightError.code).toBe(CODE_REQUIRED);
    expect(rightError.message).toMatch(/emailed/i);
    expect(phone.cookies.size).toBe(0);
    expect(await mailsTo(email)).toBe(mailsBefore + 1);

    // A wrong password from yet another address gets the very same answer, and no mail.
    const guesser = device('192.0.2.38');
    const wrong = await guesser.signIn(email, 'yet another guess');
    expect(wrong.status).toBe(right.status);
    expect(await errorOf(wrong)).toEqual(rightError);
    expect(await mailsTo(email)).toBe(mailsBefore + 1);

    // The mailed code with the password signs the owner in.
    const code = await mailedCode(email);
    const signedIn = await phone.signIn(email, PASSWORD, code);
    expect(signedIn.status).toBe(200);
    expect((await phone.me())?.email).toBe(email);

    // The success cleared the account's count: the next new device signs in with the password.
    const desktop = device('198.51.100.40');
    expect((await desktop.signIn(email, PASSWORD)).status).toBe(200);

    // The laptop the owner signed in on before the attack was never asked for a code.
    for (let i = 1; i <= 12; i++) {
      const res = await device(`192.0.2.${100 + i}`).signIn(email, `guess again ${i}`);
      expect(res.status).toBe(401);
    }
    expect((await errorOf(await device('198.51.100.41').signIn(email, PASSWORD))).code).toBe(CODE_REQUIRED);
    const back = await laptop.signIn(email, PASSWORD);
    expect(back.status).toBe(200);
    expect((await laptop.me())?.email).toBe(email);
  });

  it('allows a few tries per code, and an expired code no longer works', async () => {
    const email = uniqueEmail('tries');
    await shop.t.deps.auth.createUser({ email, password: PASSWORD });
    for (let i = 1; i <= 10; i++) {
      const res = await device(`192.0.2.${200 + i}`).signIn(email, `wrong ${i}`);
      expect(res.status).toBe(401);
    }
    const phone = device('198.51.100.50');
    expect((await errorOf(await phone.signIn(email, PASSWORD))).code).toBe(CODE_REQUIRED);
    const code = await mailedCode(email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    // Someone who has the password but not the mailbox tries codes, from five addresses.
    for (let i = 1; i <= 5; i++) {
      const res = await device(`192.0.2.${220 + i}`).signIn(email, PASSWORD, wrongCode);
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe(CODE_REQUIRED);
    }
    // Five wrong tries used the code up: the right one no longer works.
    const late = await phone.signIn(email, PASSWORD, code);
    expect(late.status).toBe(401);
    expect((await errorOf(late)).code).toBe(CODE_REQUIRED);

    // A new code, expired before it is used.
    expect((await errorOf(await phone.signIn(email, PASSWORD))).code).toBe(CODE_REQUIRED);
    const fresh = await mailedCode(email);
    expect(fresh).not.toBe('');
    await shop.t.deps.database.db
      .updateTable('verifications')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('identifier', 'like', 'sign-in-code:%')
      .execute();
    expect((await phone.signIn(email, PASSWORD, fresh)).status).toBe(401);
  });

  it('counts a guarded attempt with the right password like a wrong one: no later 429 tells them apart', async () => {
    const email = uniqueEmail('no-oracle');
    await shop.t.deps.auth.createUser({ email, password: PASSWORD });
    for (let i = 1; i <= 10; i++)
      expect((await device(`192.0.2.${i}`).signIn(email, `wrong ${i}`)).status).toBe(401);
    // Two guessers from two addresses, each with four wrong guesses and then a fifth: one of them
    // the right password. Their sixth attempts get the same answer.
    const answers: number[] = [];
    for (const [ip, fifth] of [
      ['192.0.2.150', 'wrong again'],
      ['192.0.2.151', PASSWORD],
    ] as const) {
      const guesser = device(ip);
      for (let i = 0; i < 4; i++) await (await guesser.signIn(email, `guess ${i}`)).body?.cancel();
      expect((await errorOf(await guesser.signIn(email, fifth))).code).toBe(CODE_REQUIRED);
      answers.push((await guesser.signIn(email, 'a sixth guess')).status);
    }
    expect(answers).toEqual([429, 429]);
  });

  it('never refuses a right password only because other accounts failed from the same address', async () => {
    const email = uniqueEmail('shared-nat');
    await shop.t.deps.auth.createUser({ email, password: PASSWORD });
    // One address for a whole office (a NAT, or a proxy the shop was not told about).
    const office = '198.51.100.90';
    // The owner's computer signed in from the office before.
    const computer = device(office);
    expect((await computer.signIn(email, PASSWORD)).status).toBe(200);
    await computer.signOut();
    // Someone in the same office fails on many other accounts: the address's bucket fills.
    const sprayer = device(office);
    let throttled = 0;
    for (let i = 0; i < 30; i++) {
      const res = await sprayer.signIn(uniqueEmail('spray'), 'Summer2026!');
      if (res.status === 429 || (res.status === 401 && (await errorOf(res)).code === CODE_REQUIRED))
        throttled++;
      else expect(res.status).toBe(401);
    }
    expect(throttled).toBeGreaterThan(0);

    // The owner's right password from that address signs in.
    const res = await computer.signIn(email, PASSWORD);
    expect(res.status).toBe(200);
    expect((await computer.me())?.email).toBe(email);

    // From a new device there, the right password signs in with the code mailed to the owner.
    const colleague = device(office);
    const asked = await colleague.signIn(email, PASSWORD);
    expect(asked.status).toBe(401);
    expect((await errorOf(asked)).code).toBe(CODE_REQUIRED);
    const code = await mailedCode(email);
    expect((await colleague.signIn(email, PASSWORD, code)).status).toBe(200);
    // The code worked once: another new device there is asked again.
    const reused = await device(office).signIn(email, PASSWORD, code);
    expect(reused.status).toBe(401);
    expect((await errorOf(reused)).code).toBe(CODE_REQUIRED);
  });

  it('bounds a /56: many /64s of one network spraying accounts slow that network, not another', async () => {
    // Five /64s of 2001:db8:38:5500::/56, each under its own bar (20 failures), 80 together: the
    // network's bar (IPV6_NETWORK_LIMIT_MULTIPLIER x 20).
    for (let net = 1; net <= 5; net++) {
      const sprayer = device(`2001:db8:38:55${net.toString(16).padStart(2, '0')}::1`);
      for (let i = 0; i < 16; i++) {
        const res = await sprayer.signIn(uniqueEmail('net-spray'), 'Summer2026!');
        expect(res.status).toBe(401);
        expect((await errorOf(res)).code).toBe('UNAUTHENTICATED');
      }
    }
    // A sixth /64 of that /56 is slowed: the code step for any account it never signed in on.
    const next = await device('2001:db8:38:55ff::1').signIn(uniqueEmail('net-spray'), 'Summer2026!');
    expect((await errorOf(next)).code).toBe(CODE_REQUIRED);
    // Another /56 is not.
    const other = await device('2001:db8:38:5600::1').signIn(uniqueEmail('net-spray'), 'Summer2026!');
    expect((await errorOf(other)).code).toBe('UNAUTHENTICATED');
  });

  it('limits password-reset mail per requester: a victim still resets from another client and from a signed-in device', async () => {
    const email = uniqueEmail('victim');
    await shop.t.deps.auth.createUser({ email, password: PASSWORD });
    const before = await mailsTo(email);

    // One requester asks again and again for the victim's reset: limited, per requester.
    const attacker = device('2001:db8:38:3::1');
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++) {
      statuses.push((await attacker.forgotPassword(email, `2001:db8:38:3::${i}`)).status);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);

    // The victim, from another client, still gets a reset mail.
    const home = device('198.51.100.60');
    const mailsNow = await mailsTo(email);
    expect((await home.forgotPassword(email)).status).toBe(200);
    expect(await mailsTo(email)).toBe(mailsNow + 1);
    expect(mailsNow).toBeGreaterThan(before);

    // Many requesters together reach the address's ceiling against mail-bombing...
    const phone = device('198.51.100.61');
    expect((await phone.signIn(email, PASSWORD)).status).toBe(200);
    const laptop = device('198.51.100.62');
    expect((await laptop.signIn(email, PASSWORD)).status).toBe(200);
    await laptop.signOut();
    let refused = 0;
    for (let i = 1; i <= 30; i++) {
      const res = await device(`192.0.2.${i}`).forgotPassword(email);
      if (res.status === 429) refused++;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBeGreaterThan(0);
    // ...which never applies to the owner's signed-in device, nor to one that signed in recently.
    const mailsBefore = await mailsTo(email);
    expect((await phone.forgotPassword(email)).status).toBe(200);
    expect((await laptop.forgotPassword(email)).status).toBe(200);
    expect(await mailsTo(email)).toBe(mailsBefore + 2);
  });
});
