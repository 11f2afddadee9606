import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '#server/lib/app-error';
import { requireAdmin, requireUser, sessionMiddleware } from '#server/lib/auth-guards';
import type { AppEnv } from '#server/lib/hono-env';
import {
  ADMIN_CREDENTIALS_FILE,
  bootstrapAdmin,
  DEMO_ADMIN_EMAIL,
} from '#server/modules/auth/admin-bootstrap';
import { type Database } from '#server/db/client';
import { BACKENDS, type ScratchDatabase } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import {
  errorOf,
  me,
  openAccounts,
  PASSWORD,
  RELAXED_LIMIT,
  signUp,
  uniqueEmail,
  type AccountsApp,
} from './auth-test-kit';

/**
 * Roles: the guards that let a user or an admin through, the auth service that creates users and
 * sets passwords and roles, and the admin account made at start (the demo admin once, the one
 * ADMIN_EMAIL / ADMIN_PASSWORD name).
 */

describe.each(BACKENDS)('accounts on %s', (backend) => {
  let accounts: AccountsApp;
  let scratch: ScratchDatabase;
  let database: Database;
  let t: TestApp;
  let apps: TestApp[];
  beforeAll(async () => {
    accounts = await openAccounts(backend);
    ({ scratch, database, t, apps } = accounts);
  });
  afterAll(() => accounts?.close());

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
