import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { AppError } from '#server/lib/app-error';
import { requireAdmin, requireUser, sessionMiddleware } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import {
  ADMIN_CREDENTIALS_FILE,
  bootstrapAdmin,
  DEMO_ADMIN_EMAIL,
} from '#server/modules/auth/admin-bootstrap';
import { type Database } from '#server/db/client';
import { sweepRateLimits } from '#server/jobs/reservation-sweeper';
import { loadConfig } from '#server/config';
import { createPasswordHasher } from '#server/modules/auth/better-auth';
import {
  BACKENDS,
  createScratchDatabase,
  warnIfPostgresSkipped,
  type ScratchDatabase,
} from '../helpers/databases';
import {
  openTestDatabase,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
  type TestClient,
} from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';

const PASSWORD = 'correct horse battery';
/** Most tests sign in many times: the rate-limit tests run on their own app with a low limit. */
const RELAXED_LIMIT = { SIGN_IN_RATE_LIMIT: '1000', SIGN_UP_RATE_LIMIT: '1000' };

let emailCounter = 0;
const uniqueEmail = (label: string) => `${label}-${++emailCounter}@example.com`;

async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}

function sessionCookieOf(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => /^(__Secure-)?shop\.session_token=[^;]/.test(c));
}

/** A new account, signed in on `client` (sign-up itself never signs in). */
async function signUp(client: TestClient, email: string, password = PASSWORD) {
  const res = await signUpAndIn(client, { email, password });
  expect(res.status).toBe(200);
  return ((await res.json()) as { user: { id: string; email: string; role: string } }).user;
}

async function me(client: TestClient) {
  const res = await client.get('/api/auth/me');
  expect(res.status).toBe(200);
  return ((await res.json()) as { user: { id: string; email: string; name: string; role: string } | null })
    .user;
}

describe.each(BACKENDS)('accounts on %s', (backend) => {
  // One database for the whole file (opening PGlite is the slow part); the app instances below
  // share it, each with its own configuration.
  let scratch: ScratchDatabase;
  let database: Database;
  let t: TestApp;
  const apps: TestApp[] = [];
  const startApp = async (env: Record<string, string>) => {
    const app = await startTestApp({ backend, scratch, database, env });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    warnIfPostgresSkipped();
    scratch = await createScratchDatabase(backend);
    database = await openTestDatabase(scratch, { poolSize: 5 });
    t = await startApp(RELAXED_LIMIT);
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await database?.close();
    await scratch?.drop();
  });

  describe('sign-up', () => {
    it('creates a customer without a session (sign-in comes next) and stores an argon2id hash', async () => {
      const client = t.client();
      const email = uniqueEmail('Sign.Up');
      const res = await client.post('/api/auth/sign-up/email', {
        email: `  ${email.toUpperCase()} `,
        password: PASSWORD,
        name: 'Ada',
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { user: Record<string, unknown> };
      expect(body).toEqual({
        user: { id: expect.any(String), email: email.toLowerCase(), name: 'Ada', role: 'customer' },
      });
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await me(client)).toBeNull();
      await client.post('/api/auth/sign-in/email', { email, password: PASSWORD });
      expect(await me(client)).toEqual(body.user);

      const account = await t.deps.database.db
        .selectFrom('accounts')
        .select(['password', 'provider_id'])
        .where('user_id', '=', String(body.user.id))
        .executeTakeFirstOrThrow();
      expect(account.provider_id).toBe('credential');
      // NODE_ENV=test hashes at argon2id's cheapest; the next test checks the real parameters.
      expect(account.password).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    });

    it('hashes at OWASP argon2id cost (19 MiB, 2 passes) outside tests, and verifies either cost', async () => {
      const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: t.dataDir });
      expect(config.passwordHashCost).toBe('owasp');
      const real = createPasswordHasher(config.passwordHashCost);
      const hash = await real.hash(PASSWORD);
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await real.verify(hash, PASSWORD)).toBe(true);
      expect(await real.verify(hash, `${PASSWORD}x`)).toBe(false);
      const cheap = await createPasswordHasher('test').hash(PASSWORD);
      expect(await real.verify(cheap, PASSWORD)).toBe(true);
      expect(await real.verify('not a hash', PASSWORD)).toBe(false);
    });

    it('never lets the caller choose a role', async () => {
      const client = t.client();
      const res = await client.post('/api/auth/sign-up/email', {
        email: uniqueEmail('sneaky'),
        password: PASSWORD,
        role: 'admin',
      });
      expect(res.status).toBe(200);
      const { user } = (await res.json()) as { user: { email: string; role: string } };
      expect(user.role).toBe('customer');
      await client.post('/api/auth/sign-in/email', { email: user.email, password: PASSWORD });
      expect((await me(client))?.role).toBe('customer');
    });

    it('answers 400 naming the invalid fields', async () => {
      const res = await t
        .client()
        .post('/api/auth/sign-up/email', { email: 'not-an-email', password: 'short' });
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(error.fields ?? {}).sort()).toEqual(['email', 'password']);
      expect(error.fields?.email).toBe('Please enter a valid email address');
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('answers an email that already has an account (whatever its case) as a new one, changing nothing', async () => {
      const email = uniqueEmail('dup');
      const owner = await signUp(t.client(), email);
      const res = await t
        .client()
        .post('/api/auth/sign-up/email', { email: email.toUpperCase(), password: 'another password' });
      expect(res.status).toBe(200);
      const { user } = (await res.json()) as { user: { id: string } };
      expect(user).toEqual({ id: expect.any(String), email, name: '', role: 'customer' });
      expect(user.id).not.toBe(owner.id);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(
        (await t.client().post('/api/auth/sign-in/email', { email, password: 'another password' })).status,
      ).toBe(401);
    });

    it('answers 400 BAD_JSON for a body that is not JSON', async () => {
      const res = await t.client().request('POST', '/api/auth/sign-up/email', {
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('BAD_JSON');
    });
  });

  describe('sign-in', () => {
    let email: string;
    beforeAll(async () => {
      email = uniqueEmail('signin');
      await t.deps.auth.createUser({ email, password: PASSWORD, name: 'Grace' });
    });

    it('signs in with the right password', async () => {
      const client = t.client();
      expect(await me(client)).toBeNull();
      const res = await client.post('/api/auth/sign-in/email', {
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        user: { id: expect.any(String), email, name: 'Grace', role: 'customer' },
      });
      expect(sessionCookieOf(res)).toBeDefined();
      expect((await me(client))?.email).toBe(email);
    });

    it('answers 401 with one message for a wrong password and for an unknown email', async () => {
      const wrong = await t.client().post('/api/auth/sign-in/email', { email, password: 'wrong password' });
      const unknown = await t
        .client()
        .post('/api/auth/sign-in/email', { email: uniqueEmail('nobody'), password: PASSWORD });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({
          error: { code: 'UNAUTHENTICATED', message: 'Invalid email or password' },
        });
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    });

    it('answers 400 naming missing fields', async () => {
      const res = await t.client().post('/api/auth/sign-in/email', {});
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(error.fields ?? {}).sort()).toEqual(['email', 'password']);
    });

    it('sets an httpOnly, SameSite=Lax, Path=/ cookie without Secure on http', async () => {
      const res = await t.client().post('/api/auth/sign-in/email', { email, password: PASSWORD });
      const cookie = sessionCookieOf(res);
      expect(cookie).toMatch(/^shop\.session_token=/);
      const attributes = cookie!.split(';').map((a) => a.trim().toLowerCase());
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('path=/');
      expect(attributes).not.toContain('secure');
    });
  });

  describe('sessions', () => {
    it('sign-out deletes the session on the server: the old cookie no longer works', async () => {
      const client = t.client();
      const user = await signUp(client, uniqueEmail('signout'));
      const oldCookie = client.cookies.get('shop.session_token')!;
      expect(oldCookie).toBeTruthy();

      const res = await client.post('/api/auth/sign-out');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.getSetCookie().some((c) => /^shop\.session_token=;.*Max-Age=0/i.test(c))).toBe(true);
      expect(client.cookies.has('shop.session_token')).toBe(false);

      const replay = t.client();
      replay.cookies.set('shop.session_token', oldCookie);
      expect(await me(replay)).toBeNull();
      const rows = await t.deps.database.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toEqual([]);
    });

    it('sign-out without a session still answers ok', async () => {
      const res = await t.client().post('/api/auth/sign-out');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    });

    it('refuses and deletes a session older than the absolute lifetime, even if recently used', async () => {
      const client = t.client();
      const user = await signUp(client, uniqueEmail('old'));
      const maxAge = t.deps.config.session.maxAgeSeconds;
      await t.deps.database.db
        .updateTable('sessions')
        .set({
          created_at: sql<Date>`now() - make_interval(secs => ${maxAge + 60})`,
          expires_at: sql<Date>`now() + interval '1 day'`,
        })
        .where('user_id', '=', user.id)
        .execute();

      expect(
        await t.deps.auth.getSessionUser(
          new Headers({ cookie: `shop.session_token=${client.cookies.get('shop.session_token')}` }),
        ),
      ).toBeNull();
      const rows = await t.deps.database.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toEqual([]);
      expect(await me(client)).toBeNull();
    });

    it('/me clears the cookie of a session past the cap', async () => {
      const client = t.client();
      const user = await signUp(client, uniqueEmail('old2'));
      await t.deps.database.db
        .updateTable('sessions')
        .set({ created_at: sql<Date>`now() - interval '400 days'` })
        .where('user_id', '=', user.id)
        .execute();
      const res = await client.get('/api/auth/me');
      expect(await res.json()).toEqual({ user: null });
      expect(res.headers.getSetCookie().some((c) => /^shop\.session_token=;.*Max-Age=0/i.test(c))).toBe(true);
    });

    it('expires a session left idle past its expiry', async () => {
      const client = t.client();
      const user = await signUp(client, uniqueEmail('idle'));
      await t.deps.database.db
        .updateTable('sessions')
        .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
        .where('user_id', '=', user.id)
        .execute();
      expect(await me(client)).toBeNull();
    });

    it('answers { user: null } without a cookie and for a forged one', async () => {
      expect(await me(t.client())).toBeNull();
      const forged = t.client();
      forged.cookies.set('shop.session_token', 'abc.def');
      expect(await me(forged)).toBeNull();
    });
  });

  describe('CSRF', () => {
    it('refuses sign-out and sign-in from another site when a cookie is present', async () => {
      const email = uniqueEmail('csrf');
      const client = t.client();
      await signUp(client, email);
      const evil = { headers: { origin: 'https://evil.example' } };

      const out = await client.post('/api/auth/sign-out', undefined, evil);
      expect(out.status).toBe(403);
      expect((await errorOf(out)).code).toBe('CSRF_REJECTED');

      const signIn = await client.post('/api/auth/sign-in/email', { email, password: PASSWORD }, evil);
      expect(signIn.status).toBe(403);
      expect((await errorOf(signIn)).code).toBe('CSRF_REJECTED');

      // The session survived the forged sign-out.
      expect((await me(client))?.email).toBe(email);
    });
  });

  describe('exposed endpoints', () => {
    it.each([
      ['GET', '/api/auth/get-session'],
      ['POST', '/api/auth/update-user'],
      ['POST', '/api/auth/change-password'],
      ['GET', '/api/auth/ok'],
    ])('%s %s is not reachable', async (method, url) => {
      const res = await t.client().request(method, url, method === 'POST' ? { json: {} } : {});
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe('NOT_FOUND');
    });
  });

  describe('authorization guards', () => {
    const guarded = () => {
      const app = new Hono<AppEnv>();
      app.use(
        '*',
        sessionMiddleware((headers) => t.deps.auth.getSessionUser(headers)),
      );
      app.get('/admin', requireAdmin, (c) => c.json({ ok: true, role: c.var.user.role }));
      app.get('/account', requireUser, (c) => c.json({ ok: true }));
      app.onError((err, c) =>
        err instanceof AppError
          ? c.json(err.toBody(), err.status as 401)
          : c.json({ error: String(err) }, 500),
      );
      return app;
    };
    const cookieOf = (client: TestClient) => `shop.session_token=${client.cookies.get('shop.session_token')}`;

    it('a signed-in customer is a user but not an admin', async () => {
      const client = t.client();
      await signUp(client, uniqueEmail('customer'));
      const app = guarded();
      expect((await app.request('/account', { headers: { cookie: cookieOf(client) } })).status).toBe(200);
      const res = await app.request('/admin', { headers: { cookie: cookieOf(client) } });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('FORBIDDEN');
    });

    it('anonymous gets 401 and an admin gets through', async () => {
      const app = guarded();
      expect((await app.request('/admin')).status).toBe(401);
      const email = uniqueEmail('boss');
      await t.deps.auth.createUser({ email, password: PASSWORD, role: 'admin' });
      const client = t.client();
      expect((await client.post('/api/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(200);
      expect((await me(client))?.role).toBe('admin');
      const res = await app.request('/admin', { headers: { cookie: cookieOf(client) } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, role: 'admin' });
    });
  });

  describe('service', () => {
    it('createUser refuses a taken email with 409 and validates its input', async () => {
      const email = uniqueEmail('svc');
      const user = await t.deps.auth.createUser({ email: email.toUpperCase(), password: PASSWORD });
      expect(user).toEqual({ id: expect.any(String), email, name: '', role: 'customer' });
      await expect(t.deps.auth.createUser({ email, password: PASSWORD })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      await expect(t.deps.auth.createUser({ email: 'nope', password: PASSWORD })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
      await expect(
        t.deps.auth.createUser({ email: uniqueEmail('svc'), password: 'short' }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    });

    it('setPassword and setRole take effect at the next request', async () => {
      const email = uniqueEmail('svc2');
      const user = await t.deps.auth.createUser({ email, password: PASSWORD });
      await t.deps.auth.setPassword(user.id, 'a brand new password');
      await t.deps.auth.setRole(user.id, 'admin');
      const client = t.client();
      expect((await client.post('/api/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(401);
      expect(
        (await client.post('/api/auth/sign-in/email', { email, password: 'a brand new password' })).status,
      ).toBe(200);
      expect((await me(client))?.role).toBe('admin');
      await t.deps.auth.setRole(user.id, 'customer');
      expect((await me(client))?.role).toBe('customer');
      expect(await t.deps.auth.findUserByEmail(email.toUpperCase())).toEqual({ ...user, role: 'customer' });
    });
  });

  describe('https', () => {
    let secure: TestApp;
    beforeAll(async () => {
      secure = await startApp({ ...RELAXED_LIMIT, PUBLIC_URL: 'https://shop.example' });
    });

    it('marks the session cookie Secure (with the __Secure- prefix) when PUBLIC_URL is https', async () => {
      const client = secure.client();
      const origin = { headers: { origin: 'https://shop.example' } };
      const res = await signUpAndIn(client, { email: uniqueEmail('tls'), password: PASSWORD }, origin);
      expect(res.status).toBe(200);
      const cookie = sessionCookieOf(res);
      expect(cookie).toMatch(/^__Secure-shop\.session_token=/);
      const attributes = cookie!.split(';').map((a) => a.trim().toLowerCase());
      expect(attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']));
      expect((await me(client))?.role).toBe('customer');

      // The shop's own origin over http is not trusted there.
      const wrongOrigin = await client.post('/api/auth/sign-out');
      expect(wrongOrigin.status).toBe(403);
    });
  });

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

  describe('password policy', () => {
    it.each(['password', '12345678', '        ', 'Password1', 'iloveyou'])(
      'refuses %j at sign-up with a message on the password field',
      async (password) => {
        const res = await t
          .client()
          .post('/api/auth/sign-up/email', { email: uniqueEmail('weak'), password });
        expect(res.status).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe('VALIDATION_FAILED');
        expect(error.fields?.password).toMatch(
          /^(This password is too common\. Choose another\.|Password cannot be only spaces)$/,
        );
      },
    );

    it('accepts a long passphrase with spaces, as written (no truncation)', async () => {
      const passphrase = `  my  ${'very '.repeat(20)}long pass phrase  `;
      const email = uniqueEmail('phrase');
      await signUp(t.client(), email, passphrase);
      const client = t.client();
      expect((await client.post('/api/auth/sign-in/email', { email, password: passphrase })).status).toBe(
        200,
      );
      expect(
        (await t.client().post('/api/auth/sign-in/email', { email, password: passphrase.slice(0, 72) }))
          .status,
      ).toBe(401);
    });

    it('refuses a common ADMIN_PASSWORD at start with a message naming it', async () => {
      const weak = await startApp({
        ...RELAXED_LIMIT,
        ADMIN_EMAIL: uniqueEmail('owner'),
        ADMIN_PASSWORD: 'password123',
      });
      await expect(bootstrapAdmin(weak.deps)).rejects.toThrow(
        'ADMIN_PASSWORD: This password is too common. Choose another.',
      );
    });
  });

  describe('admin bootstrap', () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      a = t;
      // A second instance: on PostgreSQL with its own connection pool; PGlite is one process and
      // shares the handle.
      b = await startTestApp({
        backend,
        scratch,
        env: RELAXED_LIMIT,
        ...(backend === 'pglite' ? { database } : {}),
      });
      apps.push(b);
    });

    const admins = () =>
      a.deps.database.db.selectFrom('users').select(['email']).where('role', '=', 'admin').execute();

    it('creates the demo admin once, even with two instances starting together, and writes its password', async () => {
      // Precondition: no admin yet (other tests of this file made some).
      await database.db.updateTable('users').set({ role: 'customer' }).where('role', '=', 'admin').execute();
      const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        await Promise.all([bootstrapAdmin(a.deps), bootstrapAdmin(b.deps)]);
        expect(await admins()).toEqual([{ email: DEMO_ADMIN_EMAIL }]);

        const files = [a, b]
          .map((app) => path.join(app.dataDir, ADMIN_CREDENTIALS_FILE))
          .filter((f) => existsSync(f));
        expect(files).toHaveLength(1);
        const file = files[0]!;
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const password = /^password=(.+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
        expect(password).toMatch(/^[\w-]{20,}$/);
        const printed = write.mock.calls.map((call) => String(call[0])).filter((s) => s.includes(password!));
        expect(printed).toHaveLength(1);

        const client = a.client();
        const res = await client.post('/api/auth/sign-in/email', { email: DEMO_ADMIN_EMAIL, password });
        expect(res.status).toBe(200);
        expect((await me(client))?.role).toBe('admin');

        // Later starts change nothing and print nothing.
        write.mockClear();
        const before = readFileSync(file, 'utf8');
        await bootstrapAdmin(a.deps);
        expect(await admins()).toEqual([{ email: DEMO_ADMIN_EMAIL }]);
        expect(readFileSync(file, 'utf8')).toBe(before);
        expect(write).not.toHaveBeenCalled();
        expect((await me(client))?.role).toBe('admin');
      } finally {
        write.mockRestore();
      }
    });

    it('creates the admin named by ADMIN_EMAIL / ADMIN_PASSWORD', async () => {
      const email = uniqueEmail('owner');
      await bootstrapAdmin({
        ...a.deps,
        config: { ...a.deps.config, adminEmail: email, adminPassword: 'owner password 1' },
      });
      const client = a.client();
      expect(
        (await client.post('/api/auth/sign-in/email', { email, password: 'owner password 1' })).status,
      ).toBe(200);
      expect((await me(client))?.role).toBe('admin');

      // Every start re-applies the configured password; an unchanged one keeps sessions.
      await bootstrapAdmin({
        ...a.deps,
        config: { ...a.deps.config, adminEmail: email, adminPassword: 'owner password 1' },
      });
      expect((await me(client))?.role).toBe('admin');
      await bootstrapAdmin({
        ...a.deps,
        config: { ...a.deps.config, adminEmail: email, adminPassword: 'owner password 2' },
      });
      expect(await me(client)).toBeNull();
      expect(
        (await a.client().post('/api/auth/sign-in/email', { email, password: 'owner password 1' })).status,
      ).toBe(401);
      expect(
        (await a.client().post('/api/auth/sign-in/email', { email, password: 'owner password 2' })).status,
      ).toBe(200);
    });

    it('promotes an existing customer with that email, resets the password and ends their sessions', async () => {
      const email = uniqueEmail('squatter');
      const customer = a.client();
      await signUp(customer, email, 'squatter password');
      expect((await me(customer))?.role).toBe('customer');

      await bootstrapAdmin({
        ...a.deps,
        config: { ...a.deps.config, adminEmail: email, adminPassword: 'the real admin pw' },
      });

      expect(await me(customer)).toBeNull();
      expect(
        (await a.client().post('/api/auth/sign-in/email', { email, password: 'squatter password' })).status,
      ).toBe(401);
      const owner = a.client();
      expect(
        (await owner.post('/api/auth/sign-in/email', { email, password: 'the real admin pw' })).status,
      ).toBe(200);
      expect((await me(owner))?.role).toBe('admin');
      const users = await a.deps.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(users).toHaveLength(1);
    });
  });
});
