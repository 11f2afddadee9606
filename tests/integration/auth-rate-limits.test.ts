import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database } from '#server/db/client';
import { sweepRateLimits } from '#server/jobs/reservation-sweeper';
import { BACKENDS } from '../helpers/databases';
import { TEST_ORIGIN, type TestApp } from '../helpers/test-app';
import { errorOf, openAccounts, PASSWORD, uniqueEmail, type AccountsApp } from './auth-test-kit';

/**
 * Sign-in and sign-up rate limits, on an app of their own with a low limit: failures slow the
 * client that makes them (never the admin's right password elsewhere), an account guessed at often
 * asks a new device for a mailed code, sign-ups per address, the sweep of old counters.
 */

describe.each(BACKENDS)('accounts on %s', (backend) => {
  let accounts: AccountsApp;
  let database: Database;
  let startApp: AccountsApp['startApp'];
  beforeAll(async () => {
    accounts = await openAccounts(backend);
    ({ database, startApp } = accounts);
  });
  afterAll(() => accounts?.close());

  describe('rate limiting', () => {
    const LIMIT = 3;
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startApp({
        SIGN_IN_RATE_LIMIT: String(LIMIT),
        SIGN_IN_RATE_WINDOW_SECONDS: '900',
        SIGN_UP_RATE_LIMIT: String(LIMIT),
      });
    });

    /** A request as if it came over a socket from `ip` (app.request has no socket otherwise). */
    const postFrom = (ip: string, url: string, json: unknown) =>
      limited.app.request(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
          body: JSON.stringify(json),
        },
        { incoming: { socket: { remoteAddress: ip } } },
      );
    const signInFrom = (ip: string, email: string, password: string) =>
      postFrom(ip, '/api/auth/sign-in/email', { email, password });

    async function expectRateLimited(res: Response, maxRetryAfter = 60) {
      expect(res.status).toBe(429);
      expect((await errorOf(res)).code).toBe('RATE_LIMITED');
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
      return retryAfter;
    }

    /** Moves the last failure of every counter back, as if `seconds` had passed. */
    const age = (seconds: number) =>
      database.db
        .updateTable('rate_limit_counters')
        .set({ last_request: sql<string>`last_request - ${seconds * 1000}` })
        .where('key', 'like', 'sign-in-fail%')
        .execute();

    /** The sign-in code of the newest such mail to `email` (the outbox's table). */
    async function mailedSignInCode(email: string): Promise<string> {
      const row = await database.db
        .selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', email)
        .where('event_key', 'like', 'sign-in-code:%')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      return /sign-in code is (\d{6})/.exec(row.text_body)![1]!;
    }

    it('never locks the admin out: failures from one client do not stop the right password from another', async () => {
      const email = uniqueEmail('admin-target');
      await limited.deps.auth.createUser({ email, password: PASSWORD, role: 'admin' });
      for (let i = 0; i < 12; i++) {
        const res = await signInFrom('198.51.100.7', email, 'wrong password');
        expect([401, 429]).toContain(res.status);
      }
      // Twelve failed attempts (SIGN_IN_ACCOUNT_CODE_AFTER is 10): a new device needs, besides
      // the right password, the code mailed to the account; with it the owner signs in.
      const asked = await signInFrom('203.0.113.9', email, PASSWORD);
      expect(asked.status).toBe(401);
      expect((await errorOf(asked)).code).toBe('SIGN_IN_CODE_REQUIRED');
      const owner = await postFrom('203.0.113.9', '/api/auth/sign-in/email', {
        email,
        password: PASSWORD,
        code: await mailedSignInCode(email),
      });
      expect(owner.status).toBe(200);
      expect(owner.headers.getSetCookie().some((c) => c.startsWith('shop.session_token='))).toBe(true);
      // Many addresses guessing the same account do not stop it either.
      for (let i = 1; i <= LIMIT + 2; i++) {
        expect((await signInFrom(`198.51.100.${20 + i}`, email, 'guess')).status).toBe(401);
      }
      expect((await signInFrom('203.0.113.10', email, PASSWORD)).status).toBe(200);
    });

    it('slows down the client that fails, progressively, and counts only failures', async () => {
      const email = uniqueEmail('slowed');
      await limited.deps.auth.createUser({ email, password: PASSWORD });
      const ip = '198.51.100.77';
      // Successes are not failures: sign in often without being slowed.
      for (let i = 0; i < LIMIT + 2; i++) expect((await signInFrom(ip, email, PASSWORD)).status).toBe(200);
      for (let i = 0; i < LIMIT; i++)
        expect((await signInFrom(ip, email, 'wrong password')).status).toBe(401);
      // Past the free failures: wait 1 s after the last failure, even with the right password.
      const first = await expectRateLimited(await signInFrom(ip, email, PASSWORD));
      expect(first).toBe(1);
      // A refused attempt is not counted; after the wait the next failure doubles the wait.
      await age(1);
      expect((await signInFrom(ip, email, 'wrong password')).status).toBe(401);
      expect(await expectRateLimited(await signInFrom(ip, email, 'wrong password'))).toBe(2);
      await age(2);
      expect((await signInFrom(ip, email, 'wrong password')).status).toBe(401);
      expect(await expectRateLimited(await signInFrom(ip, email, PASSWORD))).toBe(4);
      // After the wait the right password goes through and clears the count.
      await age(4);
      expect((await signInFrom(ip, email, PASSWORD)).status).toBe(200);
      for (let i = 0; i < LIMIT; i++)
        expect((await signInFrom(ip, email, 'wrong password')).status).toBe(401);
      await expectRateLimited(await signInFrom(ip, email, PASSWORD));
    });

    it('caps the wait at SIGN_IN_MAX_DELAY_SECONDS and forgets failures after the window', async () => {
      const email = uniqueEmail('capped');
      await limited.deps.auth.createUser({ email, password: PASSWORD });
      const ip = '198.51.100.88';
      for (let i = 0; i < 12; i++) {
        expect((await signInFrom(ip, email, 'wrong password')).status).toBe(401);
        await age(400);
      }
      await database.db
        .updateTable('rate_limit_counters')
        .set({ last_request: String(Date.now()) })
        .where('key', 'like', 'sign-in-fail%')
        .execute();
      expect(await expectRateLimited(await signInFrom(ip, email, PASSWORD), 300)).toBe(300);
      await age(901);
      // The client's wait is over; the account, guessed at 12 times today, asks this device (it
      // never signed in on it) for the mailed code as well.
      const asked = await signInFrom(ip, email, PASSWORD);
      expect(asked.status).toBe(401);
      expect((await errorOf(asked)).code).toBe('SIGN_IN_CODE_REQUIRED');
      const code = await mailedSignInCode(email);
      expect(
        (await postFrom(ip, '/api/auth/sign-in/email', { email, password: PASSWORD, code })).status,
      ).toBe(200);
    });

    it('stops one client address guessing many accounts from learning passwords, and not another address', async () => {
      const ip = '203.0.113.50';
      // Four times the per-account allowance, spread over many emails.
      for (let i = 0; i < LIMIT * 4; i++) {
        expect((await signInFrom(ip, uniqueEmail('spray'), 'guess')).status).toBe(401);
      }
      // The address is slowed: a device there that never signed in on the account needs the
      // mailed code, and the answer is the same whether the password was right or not (a right
      // one is never refused: it mails the code to the owner).
      const email = uniqueEmail('spray-target');
      await limited.deps.auth.createUser({ email, password: PASSWORD });
      const wrong = await signInFrom(ip, email, 'guess');
      const right = await signInFrom(ip, email, PASSWORD);
      expect(wrong.status).toBe(401);
      expect(right.status).toBe(401);
      const answer = await errorOf(right);
      expect(answer.code).toBe('SIGN_IN_CODE_REQUIRED');
      expect(await errorOf(wrong)).toEqual(answer);
      const other = await signInFrom('203.0.113.51', uniqueEmail('spray'), 'guess');
      expect(other.status).toBe(401);
      expect((await errorOf(other)).code).toBe('UNAUTHENTICATED');
    });

    it('limits sign-ups per client address', async () => {
      for (let i = 0; i < LIMIT; i++) {
        const res = await postFrom('203.0.113.60', '/api/auth/sign-up/email', {
          email: uniqueEmail('bulk'),
          password: PASSWORD,
        });
        expect(res.status).toBe(200);
      }
      await expectRateLimited(
        await postFrom('203.0.113.60', '/api/auth/sign-up/email', {
          email: uniqueEmail('bulk'),
          password: PASSWORD,
        }),
      );
    });

    it('deletes counters nobody touched for a day and keeps live ones', async () => {
      const now = Date.now();
      await database.db
        .insertInto('rate_limits')
        .values([
          { id: `old-${now}`, key: `test-old-${now}`, count: 3, last_request: String(now - 2 * 86_400_000) },
          { id: `live-${now}`, key: `test-live-${now}`, count: 3, last_request: String(now - 60_000) },
        ])
        .execute();
      await database.db
        .insertInto('rate_limit_counters')
        .values([
          { key: `test-old-${now}`, count: 3, last_request: String(now - 2 * 86_400_000) },
          { key: `test-live-${now}`, count: 3, last_request: String(now - 600_000) },
        ])
        .execute();
      expect(await sweepRateLimits(limited.deps)).toBeGreaterThanOrEqual(2);
      for (const table of ['rate_limits', 'rate_limit_counters'] as const) {
        const keys = (
          await database.db.selectFrom(table).select('key').where('key', 'like', `test-%-${now}`).execute()
        ).map((r) => r.key);
        expect(keys, table).toEqual([`test-live-${now}`]);
      }
    });
  });
});
