/**
 * The settings screen's Stripe keys (issue 40, "API settings an owner can trust"): a key is checked
 * for Stripe's shape and for test and live keys mixed (the shared settingValueSchema), a secret key
 * with one read-only call to Stripe (the fake answers GET /v1/balance, 401 for a key it does not
 * know, or nothing at all) before it is saved; a saved key can be removed (audited), and the shop
 * falls back to the environment's value or to card payments not configured. No response carries a
 * key in full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#common/schemas/admin';
import type { AuditEntry } from '#common/schemas/admin-audit';
import {
  STRIPE_KEY_MESSAGES,
  stripeMixedModeMessage,
  type AdminSetting,
  type AdminSettingList,
} from '#common/schemas/admin-settings';
import { STRIPE_CHECK_MESSAGES } from '#server/modules/settings/stripe-key-check';
import { startFakeStripe, type FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

const alnum = (n: number, seed: string) => seed.repeat(Math.ceil(n / seed.length)).slice(0, n);

/** Keys of Stripe's shape (24 letters and digits after the prefix), none of them known to the fake yet. */
const GOOD_SECRET = `sk_test_${alnum(20, 'Gd7Kq')}4242`;
const REFUSED_SECRET = `sk_test_${alnum(20, 'Rf3Xy')}1234`;
const UNREACHED_SECRET = `sk_test_${alnum(20, 'Un9Wv')}5555`;
const LIVE_SECRET = `sk_live_${alnum(20, 'Lv2Mn')}7777`;
const TEST_PUBLISHABLE = `pk_test_${alnum(20, 'Pb5Tz')}8888`;
const LIVE_PUBLISHABLE = `pk_live_${alnum(20, 'Pl8Qr')}9999`;
const STORED_WEBHOOK = `whsec_${alnum(28, 'Wh4Ks')}3333`;
const ENV_WEBHOOK = `whsec_${alnum(28, 'En6Vw')}6666`;

describe.each(BACKENDS)('Stripe keys on the settings screen (%s)', (backend) => {
  let t: TestApp;
  let c: AdminClients;
  let fake: FakeStripeServer;
  /** Every response body the admin got, to check that no key travels in full. */
  const bodies: string[] = [];

  beforeAll(async () => {
    fake = await startFakeStripe();
    // The environment has a webhook secret but no secret key: card payments hang on the screen's key.
    t = await startTestApp({
      backend,
      env: { STRIPE_API_URL: fake.url, STRIPE_WEBHOOK_SECRET: ENV_WEBHOOK },
    });
    c = await signInClients(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const send = async (method: 'PUT' | 'DELETE', keyName: string, value?: string) => {
    const res = await c.admin.request(method, `/api/admin/settings/stripe/${keyName}`, {
      ...(value === undefined ? {} : { json: { value } }),
    });
    const text = await res.text();
    bodies.push(text);
    return { status: res.status, body: JSON.parse(text) as unknown, text };
  };
  const refusal = async (keyName: string, value: string, status = 400) => {
    const res = await send('PUT', keyName, value);
    expect(res.status, res.text).toBe(status);
    return (res.body as ErrorJson).error;
  };
  const stored = async (keyName: string) =>
    t.deps.database.db
      .selectFrom('api_configurations')
      .select('key_value_encrypted')
      .where('provider', '=', 'stripe')
      .where('key_name', '=', keyName)
      .executeTakeFirst();
  const audit = async (action: string) => {
    const res = await c.admin.get(`/api/admin/audit?action=${action}`);
    const text = await res.text();
    bodies.push(text);
    return (JSON.parse(text) as Page<AuditEntry>).items;
  };
  const list = async () => {
    const res = await c.admin.get('/api/admin/settings');
    const text = await res.text();
    bodies.push(text);
    const settings = (JSON.parse(text) as AdminSettingList).settings;
    return (keyName: string) => settings.find((s) => s.provider === 'stripe' && s.keyName === keyName)!;
  };

  it('refuses keys not of Stripe’s shape with what is wrong, before asking Stripe', async () => {
    const asked = fake.requests.length;
    expect(await refusal('secret_key', 'sk_test_tooShort1234')).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { value: STRIPE_KEY_MESSAGES.secretShape },
    });
    expect((await refusal('secret_key', TEST_PUBLISHABLE)).fields?.value).toBe(
      STRIPE_KEY_MESSAGES.secretShape,
    );
    expect((await refusal('secret_key', `${GOOD_SECRET}-x`)).fields?.value).toBe(
      STRIPE_KEY_MESSAGES.secretShape,
    );
    expect((await refusal('publishable_key', GOOD_SECRET)).fields?.value).toBe(
      STRIPE_KEY_MESSAGES.publishableShape,
    );
    expect((await refusal('webhook_secret', 'whsec_short')).fields?.value).toBe(
      STRIPE_KEY_MESSAGES.webhookShape,
    );
    expect(fake.requests.length).toBe(asked);
    expect(await stored('secret_key')).toBeUndefined();
    const [entry] = await audit('update_api_config');
    expect(entry?.details).toMatchObject({
      provider: 'stripe',
      keyName: 'webhook_secret',
      success: false,
      error: `value: ${STRIPE_KEY_MESSAGES.webhookShape}`,
    });
  });

  it('does not save a secret key Stripe refuses, and says so with Stripe’s reason', async () => {
    const error = await refusal('secret_key', REFUSED_SECRET);
    const expected = STRIPE_CHECK_MESSAGES.refused('Invalid API Key provided: sk_test_****1234');
    expect(error.fields?.value).toBe(expected);
    expect(error.fields?.value).toBe(
      'The Stripe secret key was refused by Stripe: Invalid API Key provided: sk_test_****1234',
    );
    expect(fake.requests.at(-1)).toEqual({ method: 'GET', path: '/v1/balance', status: 401 });
    expect(await stored('secret_key')).toBeUndefined();
    expect(await t.deps.settings.getSecret('stripe', 'secret_key')).toBeUndefined();
    const [entry] = await audit('update_api_config');
    expect(entry?.details).toMatchObject({
      keyName: 'secret_key',
      success: false,
      error: `value: ${expected}`,
    });
  });

  it('saves nothing when Stripe cannot be reached', async () => {
    fake.acceptSecretKey(UNREACHED_SECRET);
    fake.setUnreachable(true);
    const error = await refusal('secret_key', UNREACHED_SECRET, 503).finally(() =>
      fake.setUnreachable(false),
    );
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: STRIPE_CHECK_MESSAGES.unreachable });
    expect(await stored('secret_key')).toBeUndefined();
  });

  it('saves a secret key Stripe knows, masked in every answer, and card payments work with it', async () => {
    expect(await t.deps.stripe.isCardEnabled()).toBe(false);
    fake.acceptSecretKey(GOOD_SECRET);
    const res = await send('PUT', 'secret_key', ` ${GOOD_SECRET} `);
    expect(res.status, res.text).toBe(200);
    expect(res.body as AdminSetting).toMatchObject({
      keyName: 'secret_key',
      source: 'settings',
      maskedValue: '••••••••4242',
      mode: 'test',
      hasEnvironmentValue: false,
    });
    expect(fake.requests.at(-1)).toEqual({ method: 'GET', path: '/v1/balance', status: 200 });
    expect(await stored('secret_key')).toBeDefined();
    expect(await t.deps.settings.getSecret('stripe', 'secret_key')).toBe(GOOD_SECRET);
    expect(await t.deps.stripe.isCardEnabled()).toBe(true);
    const [entry] = await audit('update_api_config');
    expect(entry?.details).toMatchObject({ keyName: 'secret_key', success: true, error: null });
  });

  it('refuses test and live keys mixed, naming the key in use', async () => {
    const mixedPublishable = stripeMixedModeMessage('live', 'Stripe secret key', 'test');
    expect((await refusal('publishable_key', LIVE_PUBLISHABLE)).fields?.value).toBe(mixedPublishable);
    expect(mixedPublishable).toBe(
      'This is a live key, but the Stripe secret key in use is a test key: use test keys together or live keys together',
    );
    expect(await stored('publishable_key')).toBeUndefined();

    const saved = await send('PUT', 'publishable_key', TEST_PUBLISHABLE);
    expect(saved.status, saved.text).toBe(200);
    expect((await list())('publishable_key')).toMatchObject({ source: 'settings', mode: 'test' });

    const asked = fake.requests.length;
    fake.acceptSecretKey(LIVE_SECRET);
    expect((await refusal('secret_key', LIVE_SECRET)).fields?.value).toBe(
      stripeMixedModeMessage('live', 'Stripe publishable key', 'test'),
    );
    expect(fake.requests.length).toBe(asked);
    expect(await t.deps.settings.getSecret('stripe', 'secret_key')).toBe(GOOD_SECRET);
  });

  it('removes a saved key, audited; the shop falls back to the environment or to no card payments', async () => {
    // Only the admin can remove.
    expect((await c.customer.delete('/api/admin/settings/stripe/secret_key')).status).toBe(403);
    expect((await c.anonymous.delete('/api/admin/settings/stripe/secret_key')).status).toBe(401);
    expect((await c.admin.delete('/api/admin/settings/acme/token')).status).toBe(404);

    const removed = await send('DELETE', 'secret_key');
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body as AdminSetting).toMatchObject({
      keyName: 'secret_key',
      source: 'unset',
      isSet: false,
      maskedValue: null,
      mode: null,
    });
    expect(await stored('secret_key')).toBeUndefined();
    expect(await t.deps.settings.getSecret('stripe', 'secret_key')).toBeUndefined();
    expect(await t.deps.stripe.isCardEnabled()).toBe(false);
    const [entry] = await audit('remove_api_config');
    expect(entry).toMatchObject({
      actorId: c.adminId,
      details: { provider: 'stripe', keyName: 'secret_key', success: true, error: null },
    });

    // Nothing saved any more: refused, and nothing recorded (no value was touched).
    const removals = (await audit('remove_api_config')).length;
    const again = await send('DELETE', 'secret_key');
    expect(again.status).toBe(404);
    expect((again.body as ErrorJson).error.message).toBe('There is no saved value to remove');
    expect((await audit('remove_api_config')).length).toBe(removals);

    // A webhook secret saved here, removed: the environment's applies again.
    const saved = await send('PUT', 'webhook_secret', STORED_WEBHOOK);
    expect(saved.status, saved.text).toBe(200);
    expect(await t.deps.settings.getSecret('stripe', 'webhook_secret')).toBe(STORED_WEBHOOK);
    const fallback = await send('DELETE', 'webhook_secret');
    expect(fallback.status, fallback.text).toBe(200);
    expect(fallback.body as AdminSetting).toMatchObject({
      source: 'environment',
      maskedValue: '••••••••6666',
      hasEnvironmentValue: true,
    });
    expect(await t.deps.settings.getSecret('stripe', 'webhook_secret')).toBe(ENV_WEBHOOK);
  });

  it('never sends a key in full', async () => {
    await list();
    await audit('update_api_config');
    await audit('remove_api_config');
    const keys = [
      GOOD_SECRET,
      REFUSED_SECRET,
      UNREACHED_SECRET,
      LIVE_SECRET,
      TEST_PUBLISHABLE,
      LIVE_PUBLISHABLE,
      STORED_WEBHOOK,
      ENV_WEBHOOK,
    ];
    expect(bodies.length).toBeGreaterThan(15);
    for (const body of bodies) {
      for (const key of keys) expect(body).not.toContain(key.slice(8, -4));
    }
  });
});
