import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#common/schemas/admin';
import type { AdminAirdrops } from '#common/schemas/admin-airdrops';
import type { AuditEntry } from '#common/schemas/admin-audit';
import type { AdminMessage } from '#common/schemas/admin-messages';
import type { AdminSetting, AdminSettingList } from '#common/schemas/admin-settings';
import type { LiveEvent } from '#common/schemas/events';
import { decryptSecret } from '#server/lib/secret-box';
import { startFakeStripe, type FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, LIVE_WAIT, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

const HOUR = 3_600_000;

describe.each(BACKENDS)('admin messages, settings, airdrops and audit log (%s)', (backend) => {
  let t: TestApp;
  let c: AdminClients;
  const events: LiveEvent[] = [];
  let unsubscribe: () => void;
  /** Stripe's stand-in: a secret key is checked with it before it is saved. */
  let fake: FakeStripeServer;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({ backend, env: { STRIPE_API_URL: fake.url } });
    c = await signInClients(t);
    unsubscribe = t.deps.events.subscribe(['admin:messages', `tickets:${c.customerId}`, 'admin:audit'], (e) =>
      events.push(e),
    );
  });
  afterAll(async () => {
    unsubscribe?.();
    await t?.close();
    await fake?.close();
  });

  const audit = async (query: string) =>
    (await json<Page<AuditEntry>>(await c.admin.get(`/api/admin/audit${query}`), 200)).items;

  describe('messages', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      const db = t.deps.database.db;
      const insert = async (
        subject: string,
        values: { priority?: 'high' | 'normal' | 'low'; hoursAgo: number },
      ) =>
        (
          await db
            .insertInto('messages')
            .values({
              user_id: c.customerId,
              subject,
              content: `About ${subject}`,
              priority: values.priority ?? 'normal',
              created_at: new Date(Date.now() - values.hoursAgo * HOUR),
              updated_at: new Date(Date.now() - values.hoursAgo * HOUR),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      ids.refund = await insert('Refund please', { priority: 'high', hoursAgo: 1 });
      ids.sizing = await insert('Sizing question', { hoursAgo: 2 });
      ids.other = await insert('Hello', { priority: 'low', hoursAgo: 3 });
    });

    const list = async (query = '') =>
      json<Page<AdminMessage>>(await c.admin.get(`/api/admin/messages${query}`), 200);

    it('lists newest first with the sender email, filters and searches', async () => {
      const all = await list();
      expect(all.items.map((m) => m.subject)).toEqual(['Refund please', 'Sizing question', 'Hello']);
      expect(all.items[0]).toMatchObject({
        senderEmail: expect.stringMatching(/^customer-/),
        status: 'unread',
        priority: 'high',
      });
      expect((await list('?priority=low')).items.map((m) => m.subject)).toEqual(['Hello']);
      expect((await list('?search=SIZING')).items.map((m) => m.subject)).toEqual(['Sizing question']);
      expect((await list(`?search=${encodeURIComponent(all.items[0]!.senderEmail!)}`)).total).toBe(3);
      expect(
        (await json<ErrorJson>(await c.admin.get('/api/admin/messages?status=open'), 400)).error.fields
          ?.status,
      ).toEqual(expect.any(String));
    });

    it('moves status forward only; archived is final', async () => {
      const id = ids.refund!;
      const read = await json<AdminMessage>(
        await c.admin.patch(`/api/admin/messages/${id}/status`, { status: 'read' }),
        200,
      );
      expect(read.status).toBe('read');
      const back = await json<ErrorJson>(
        await c.admin.patch(`/api/admin/messages/${id}/status`, { status: 'unread' }),
        409,
      );
      expect(back.error.code).toBe('CONFLICT');
      expect((await c.admin.patch(`/api/admin/messages/${id}/status`, { status: 'archived' })).status).toBe(
        200,
      );
      for (const status of ['read', 'unread']) {
        const res = await json<ErrorJson>(
          await c.admin.patch(`/api/admin/messages/${id}/status`, { status }),
          409,
        );
        expect(res.error.message).toBe('Archived messages cannot be changed');
      }
      // Archiving again changes nothing.
      expect((await c.admin.patch(`/api/admin/messages/${id}/status`, { status: 'archived' })).status).toBe(
        200,
      );
      expect((await list('?status=archived')).items.map((m) => m.id)).toEqual([id]);
      await json(await c.admin.patch(`/api/admin/messages/${id}/status`, { status: 'closed' }), 400);
      await json(
        await c.admin.patch('/api/admin/messages/123e4567-e89b-42d3-a456-426614174000/status', {
          status: 'read',
        }),
        404,
      );

      const entries = await audit('?action=update_message_status');
      expect(entries.map((e) => [e.details.from, e.details.to])).toEqual([
        ['read', 'archived'],
        ['unread', 'read'],
      ]);
      expect(entries[0]).toMatchObject({
        actorId: c.adminId,
        details: { messageId: id, admin: { email: c.adminEmail } },
      });
      await expect
        .poll(() => events, LIVE_WAIT)
        .toContainEqual(
          expect.objectContaining({ topic: `tickets:${c.customerId}`, type: 'ticket.updated' }),
        );
      expect(events.some((e) => e.topic === 'admin:messages' && e.type === 'message.updated')).toBe(true);
    });

    it('sets the priority freely and audits it', async () => {
      const updated = await json<AdminMessage>(
        await c.admin.patch(`/api/admin/messages/${ids.sizing}/priority`, { priority: 'high' }),
        200,
      );
      expect(updated.priority).toBe('high');
      await json(
        await c.admin.patch(`/api/admin/messages/${ids.sizing}/priority`, { priority: 'urgent' }),
        400,
      );
      const [entry] = await audit('?action=update_message_priority');
      expect(entry).toMatchObject({
        details: { messageId: ids.sizing, from: 'normal', to: 'high', admin: { id: c.adminId } },
      });
    });
  });

  describe('settings', () => {
    const secret = 'sk_test_51AbCdEfGhIjKlMnOp4242';

    it('lists the catalogue masked and stores a value encrypted at rest', async () => {
      const before = await json<AdminSettingList>(await c.admin.get('/api/admin/settings'), 200);
      expect(before.settings.map((s) => `${s.provider}/${s.keyName}`)).toEqual([
        'stripe/secret_key',
        'stripe/publishable_key',
        'stripe/webhook_secret',
        'carrier/client_id',
        'carrier/client_secret',
        'market/price_url',
        'market/dex_url',
      ]);
      expect(before.settings[0]).toMatchObject({ isSet: false, maskedValue: null, source: 'unset' });

      fake.acceptSecretKey(secret);
      const saved = await json<AdminSetting>(
        await c.admin.request('PUT', '/api/admin/settings/stripe/secret_key', {
          json: { value: ` ${secret} ` },
        }),
        200,
      );
      expect(saved).toMatchObject({
        provider: 'stripe',
        keyName: 'secret_key',
        isSet: true,
        source: 'settings',
        maskedValue: '••••••••4242',
      });
      const listed = await c.admin.get('/api/admin/settings');
      const text = await listed.text();
      expect(text).not.toContain(secret);
      expect(text).not.toContain('sk_test_51');

      const row = await t.deps.database.db
        .selectFrom('api_configurations')
        .select(['key_value_encrypted', 'updated_by'])
        .where('provider', '=', 'stripe')
        .where('key_name', '=', 'secret_key')
        .executeTakeFirstOrThrow();
      expect(row.key_value_encrypted).not.toContain(secret);
      expect(row.key_value_encrypted).not.toContain('4242');
      expect(decryptSecret(t.deps.config.encryptionKey, row.key_value_encrypted!, 'stripe/secret_key')).toBe(
        secret,
      );
      expect(row.updated_by).toBe(c.adminId);
      // The services read the new value (settings win over the environment).
      expect(await t.deps.settings.getSecret('stripe', 'secret_key')).toBe(secret);

      const [entry] = await audit('?action=update_api_config');
      expect(entry).toMatchObject({
        actorId: c.adminId,
        details: {
          provider: 'stripe',
          keyName: 'secret_key',
          success: true,
          error: null,
          admin: { email: c.adminEmail },
        },
      });
      expect(JSON.stringify(entry)).not.toContain(secret);
    });

    it('refuses unknown keys and invalid values, auditing the failed attempt', async () => {
      await json(
        await c.admin.request('PUT', '/api/admin/settings/acme/token', { json: { value: 'x' } }),
        404,
      );
      const empty = await json<ErrorJson>(
        await c.admin.request('PUT', '/api/admin/settings/stripe/secret_key', { json: { value: '   ' } }),
        400,
      );
      expect(empty.error.fields?.value).toBe('Please enter a value');
      const badUrl = await json<ErrorJson>(
        await c.admin.request('PUT', '/api/admin/settings/market/price_url', {
          json: { value: 'not a url' },
        }),
        400,
      );
      expect(badUrl.error.fields?.value).toBe('Please enter an http(s) URL');
      const [entry] = await audit('?action=update_api_config');
      expect(entry?.details).toMatchObject({
        provider: 'market',
        keyName: 'price_url',
        success: false,
        error: 'value: Please enter an http(s) URL',
      });
      const saved = await json<AdminSetting>(
        await c.admin.request('PUT', '/api/admin/settings/market/price_url', {
          json: { value: 'https://prices.example.com/v3' },
        }),
        200,
      );
      expect(saved).toMatchObject({ source: 'settings', maskedValue: '••••••••m/v3' });
    });
  });

  describe('airdrops', () => {
    beforeAll(async () => {
      const db = t.deps.database.db;
      const claim = (wallet: string, lamports: string, hoursAgo: number) => ({
        wallet_address: wallet,
        amount_lamports: lamports,
        created_at: new Date(Date.now() - hoursAgo * HOUR),
      });
      await db
        .insertInto('airdrop_claims')
        .values([
          claim('WalletAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1', '1500000000', 1),
          claim('WalletBbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2', '250000000', 30),
          claim('WalletAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1', '2000000000', 200),
        ])
        .execute();
    });

    it('lists claims with stats, age buckets and search', async () => {
      const all = await json<AdminAirdrops>(await c.admin.get('/api/admin/airdrops'), 200);
      expect(all.stats).toEqual({
        totalClaims: 3,
        totalLamports: '3750000000',
        totalSol: 3.75,
        uniqueWallets: 2,
      });
      expect(all.claims.items.map((x) => [x.amountSol, x.age, x.status])).toEqual([
        [1.5, '24h', 'Claimed'],
        [0.25, '7d', 'Claimed'],
        [2, 'older', 'Claimed'],
      ]);
      const age = async (a: string) =>
        (await json<AdminAirdrops>(await c.admin.get(`/api/admin/airdrops?age=${a}`), 200)).claims.items.map(
          (x) => x.age,
        );
      expect(await age('24h')).toEqual(['24h']);
      expect(await age('7d')).toEqual(['7d']);
      expect(await age('older')).toEqual(['older']);
      const searched = await json<AdminAirdrops>(
        await c.admin.get('/api/admin/airdrops?search=walletbbbb'),
        200,
      );
      expect(searched.claims.items.map((x) => x.walletAddress)).toEqual([
        'WalletBbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2',
      ]);
      expect(searched.stats.totalClaims).toBe(3);
      const byId = await json<AdminAirdrops>(
        await c.admin.get(`/api/admin/airdrops?search=${all.claims.items[2]!.id.slice(0, 8).toUpperCase()}`),
        200,
      );
      expect(byId.claims.items.map((x) => x.id)).toEqual([all.claims.items[2]!.id]);
      await json(await c.admin.get('/api/admin/airdrops?age=30d'), 400);
    });

    it('processes an airdrop on the local ledger: nothing owed with an empty pool, audited with the admin', async () => {
      const res = await json<{ recipients: number; totalAmountLamports: string }>(
        await c.admin.post('/api/admin/airdrops/process'),
        200,
      );
      expect(res).toMatchObject({ recipients: 0, totalAmount: 0, totalAmountLamports: '0' });
      const [entry] = await audit('?action=process_airdrop');
      expect(entry).toMatchObject({
        actorId: c.adminId,
        details: {
          success: true,
          recipients: 0,
          totalAmountLamports: '0',
          admin: { id: c.adminId, email: c.adminEmail },
        },
      });
      await json(await c.admin.post('/api/admin/airdrops/process', { recipients: 5 }), 400);
    });

    it('previews a run for the confirmation without paying or auditing', async () => {
      const before = (await audit('?action=process_airdrop')).length;
      const res = await json<{ recipients: number }>(await c.admin.get('/api/admin/airdrops/preview'), 200);
      expect(res.recipients).toBe(0);
      expect(await audit('?action=process_airdrop')).toHaveLength(before);
    });
  });

  describe('audit log', () => {
    it('searches action and details text, filters by action, lists the actions', async () => {
      const found = await audit('?search=PRICE_URL');
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((e) => JSON.stringify(e.details).includes('price_url'))).toBe(true);
      expect(
        (await audit('?search=update_message')).every((e) => e.action.startsWith('update_message')),
      ).toBe(true);
      const none = await json<Page<AuditEntry>>(
        await c.admin.get('/api/admin/audit?search=no-such-entry-anywhere'),
        200,
      );
      expect(none).toMatchObject({ items: [], total: 0, hasMore: false });

      const actions = await json<{ actions: string[] }>(await c.admin.get('/api/admin/audit/actions'), 200);
      for (const action of [
        'update_order',
        'delete_order',
        'process_airdrop',
        'update_api_config',
        'create_product',
      ]) {
        expect(actions.actions).toContain(action);
      }
      await json(await c.admin.get('/api/admin/audit?action=DROP%20TABLE'), 400);
      const page = await json<Page<AuditEntry>>(await c.admin.get('/api/admin/audit?pageSize=2'), 200);
      expect(page.items).toHaveLength(2);
      expect(page.hasMore).toBe(true);
      await expect
        .poll(() => events, LIVE_WAIT)
        .toContainEqual(expect.objectContaining({ topic: 'admin:audit', type: 'audit.logged' }));
    });

    it('cannot be changed or deleted: no route does it and the database refuses it', async () => {
      const writes = t.app.routes.filter((r) => r.path.startsWith('/api/admin/audit') && r.method !== 'GET');
      expect(writes).toEqual([]);
      const db = t.deps.database.db;
      const before = await db.selectFrom('admin_audit_log').selectAll().orderBy('id').execute();
      expect(before.length).toBeGreaterThan(0);
      await expect(
        db
          .updateTable('admin_audit_log')
          .set({ action: 'tampered' })
          .where('id', '=', before[0]!.id)
          .execute(),
      ).rejects.toThrow(/append-only/);
      await expect(
        db.deleteFrom('admin_audit_log').where('id', '=', before[0]!.id).execute(),
      ).rejects.toThrow(/append-only/);
      await expect(sql`delete from admin_audit_log`.execute(db)).rejects.toThrow(/append-only/);
      expect(await db.selectFrom('admin_audit_log').selectAll().orderBy('id').execute()).toEqual(before);
    });
  });
});
