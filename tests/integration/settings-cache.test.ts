/**
 * The settings snapshot (settings.service.ts): API keys are read from memory for
 * SETTINGS_CACHE_MS instead of from api_configurations on every checkout, cancel, webhook and
 * market request. A save on the same instance applies at once; a save through the settings screen
 * of another instance (its audit entry travels as a live event) applies within a notice; a write
 * that announces nothing applies once the snapshot is older than SETTINGS_CACHE_MS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSettingsService,
  SETTINGS_CACHE_MS,
  type SettingsService,
} from '#server/modules/settings/settings.service';
import { startFakeStripe, type FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { LIVE_WAIT, signInClients } from './admin-test-kit';

describe.each(BACKENDS)('settings snapshot on %s', (backend) => {
  let t: TestApp;
  /** A second reader of the same table and live events (another instance), on a clock of its own. */
  let other: SettingsService;
  let clock = 1_000_000;
  /** Stripe's stand-in: a secret key saved on the screen is checked with it first. */
  let fake: FakeStripeServer;
  const screenKey = 'sk_test_FromTheScreen00000000001';
  beforeAll(async () => {
    fake = await startFakeStripe();
    fake.acceptSecretKey(screenKey);
    t = await startTestApp({ backend, env: { STRIPE_API_URL: fake.url } });
    other = createSettingsService({
      config: t.deps.config,
      db: t.deps.database.db,
      events: t.deps.events,
      logger: t.deps.logger,
      now: () => clock,
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('serves reads from memory, applies its own saves at once and others within its TTL', async () => {
    await other.setSecret('market', 'price_url', 'https://prices.example/one');
    expect(await other.getSecret('market', 'price_url')).toBe('https://prices.example/one');

    // A write that announces nothing (another process's setSecret): the snapshot still answers...
    await t.deps.settings.setSecret('market', 'price_url', 'https://prices.example/two');
    expect(await t.deps.settings.getSecret('market', 'price_url')).toBe('https://prices.example/two');
    clock += SETTINGS_CACHE_MS - 1;
    expect(await other.getSecret('market', 'price_url')).toBe('https://prices.example/one');
    // ...until it is SETTINGS_CACHE_MS old.
    clock += 1;
    expect(await other.getSecret('market', 'price_url')).toBe('https://prices.example/two');
  });

  it("a save on another instance's settings screen applies without waiting for the TTL", async () => {
    const c = await signInClients(t);
    expect(await other.getSecret('stripe', 'secret_key')).toBe(t.deps.config.stripe.secretKey);
    const res = await c.admin.request('PUT', '/api/admin/settings/stripe/secret_key', {
      json: { value: screenKey },
    });
    expect(res.status).toBe(200);
    // The clock of `other` stands still: only the announcement can bring the new value.
    await expect.poll(() => other.getSecret('stripe', 'secret_key'), LIVE_WAIT).toBe(screenKey);
    await t.deps.settings.setSecret('stripe', 'secret_key', null);
  });
});
