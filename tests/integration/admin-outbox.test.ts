/**
 * The admin's Outbox (issue 40): with local mail (no SMTP_URL) an admin lists the mails newest
 * first and opens one with its text and HTML bodies, the link in it included; a customer gets 403;
 * with SMTP configured (issue 41) the queue is listed too, with statuses, but a mail's bodies are
 * not shown (they may hold a reset link meant only for the recipient). GET /api/shop says whether
 * mail is local. Dead letters and Send again: mail-smtp.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_MESSAGES, type OutboxMail, type OutboxPage } from '#common/schemas/admin-outbox';
import type { ShopInfo } from '#common/schemas/shop';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { signUpAndIn } from '../helpers/sign-up';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

describe.each(BACKENDS)('admin outbox on %s', (backend) => {
  describe('local mail', () => {
    let t: TestApp;
    let clients: AdminClients;

    beforeAll(async () => {
      t = await startTestApp({ backend });
      clients = await signInClients(t);
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    it('says mail is local in the shop info', async () => {
      expect((await json<ShopInfo>(await t.app.request('/api/shop'), 200)).localMail).toBe(true);
    });

    it('lists the mails newest first and opens one with its link', async () => {
      const email = `outbox-${Date.now()}@example.com`;
      const signUp = await signUpAndIn(t.client(), { email, password: 'outbox-pass-123' });
      expect(signUp.status).toBe(200);
      await json(await t.client().post('/api/auth/forgot-password', { email }), 200);

      const page = await json<OutboxPage>(
        await clients.admin.get('/api/admin/outbox?page=1&pageSize=50'),
        200,
      );
      expect(page.page).toBe(1);
      expect(page.pageSize).toBe(50);
      const mine = page.items.filter((m) => m.to === email);
      expect(mine.length).toBeGreaterThanOrEqual(1);
      const times = page.items.map((m) => Date.parse(m.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      // The newest of this address's mails is the reset request.
      const reset = mine[0]!;
      expect(Object.keys(reset).sort()).toEqual([
        'attempts',
        'createdAt',
        'id',
        'lastError',
        'status',
        'subject',
        'to',
      ]);

      const mail = await json<OutboxMail>(await clients.admin.get(`/api/admin/outbox/${reset.id}`), 200);
      expect(mail).toMatchObject({ id: reset.id, to: email, subject: reset.subject });
      expect(Object.keys(mail).sort()).toEqual([
        'attempts',
        'createdAt',
        'html',
        'id',
        'lastError',
        'status',
        'subject',
        'text',
        'to',
      ]);
      expect(mail.text).toMatch(/https?:\/\/\S+reset-password\S*token=/);
      expect(mail.html ?? '').toContain('href=');
    });

    it('refuses a customer and answers 404 for an unknown or malformed id', async () => {
      const forbidden = await json<ErrorJson>(await clients.customer.get('/api/admin/outbox'), 403);
      expect(forbidden.error.code).toBe('FORBIDDEN');
      await json(await clients.customer.get('/api/admin/outbox/00000000-0000-4000-8000-000000000000'), 403);
      await json(await clients.anonymous.get('/api/admin/outbox'), 401);

      const missing = await json<ErrorJson>(
        await clients.admin.get('/api/admin/outbox/00000000-0000-4000-8000-000000000000'),
        404,
      );
      expect(missing.error.message).toBe(OUTBOX_MESSAGES.notFound);
      await json(await clients.admin.get('/api/admin/outbox/not-a-uuid'), 404);
    });

    it('validates the paging query', async () => {
      const bad = await json<ErrorJson>(await clients.admin.get('/api/admin/outbox?pageSize=0'), 400);
      expect(bad.error.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('SMTP configured', () => {
    let t: TestApp;
    let clients: AdminClients;

    beforeAll(async () => {
      t = await startTestApp({ backend, env: { SMTP_URL: 'smtp://user:pass@127.0.0.1:2525' } });
      clients = await signInClients(t);
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    it('lists the queue without the bodies, and the shop info says mail is not local', async () => {
      const email = `outbox-smtp-${Date.now()}@example.com`;
      await json(await t.client().post('/api/auth/forgot-password', { email }), 200);
      expect((await signUpAndIn(t.client(), { email, password: 'outbox-pass-123' })).status).toBe(200);
      const list = await json<OutboxPage>(await clients.admin.get('/api/admin/outbox'), 200);
      const mine = list.items.find((m) => m.to === email);
      expect(mine).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
      const one = await json<OutboxMail>(await clients.admin.get(`/api/admin/outbox/${mine!.id}`), 200);
      expect(one).toMatchObject({ id: mine!.id, to: email, text: null, html: null });
      expect(
        (await json<OutboxPage>(await clients.admin.get('/api/admin/outbox?status=failed'), 200)).items,
      ).toEqual([]);
      await json(await clients.customer.get('/api/admin/outbox'), 403);
      expect((await json<ShopInfo>(await t.app.request('/api/shop'), 200)).localMail).toBe(false);
    });
  });
});
