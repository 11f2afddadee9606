import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '#server/modules/auth/admin-bootstrap';
import { loadConfig } from '#server/config';
import { createPasswordHasher } from '#server/modules/auth/better-auth';
import { BACKENDS } from '../helpers/databases';
import { type TestApp } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';
import {
  errorOf,
  me,
  openAccounts,
  PASSWORD,
  RELAXED_LIMIT,
  sessionCookieOf,
  signUp,
  uniqueEmail,
  type AccountsApp,
} from './auth-test-kit';

/**
 * Accounts from the visitor's side: sign-up (and the passwords it takes), sign-in, the session
 * cookie and its end (sign-out, lifetime, idle expiry, https), CSRF, the endpoints not exposed.
 * Rate limits: auth-rate-limits.test.ts; roles, guards and the admin account: auth-admin.test.ts.
 */

describe.each(BACKENDS)('accounts on %s', (backend) => {
  let accounts: AccountsApp;
  let t: TestApp;
  let startApp: AccountsApp['startApp'];
  beforeAll(async () => {
    accounts = await openAccounts(backend);
    ({ t, startApp } = accounts);
  });
  afterAll(() => accounts?.close());

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
});
