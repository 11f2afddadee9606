/**
 * POST /api/tracking-info: the carrier's status, place and time for a tracking number on one of the
 * caller's own orders, through USPS (a local stand-in speaking its wire format); cached; 'not
 * available' without credentials or when the carrier fails (logged, never an error).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKING_UNAVAILABLE, type TrackingInfo } from '#common/schemas/tracking';
import { createLogger } from '#server/lib/logger';
import { createTrackingService } from '#server/modules/tracking/tracking.service';
import { createUspsCarrier } from '#server/modules/tracking/usps-carrier';
import { startFakeUsps, type FakeUsps } from '../fakes/usps-server';
import { createOrder } from '../factories/order';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { json, type ErrorJson } from './admin-test-kit';
import { signUpAndIn } from '../helpers/sign-up';

let counter = 0;
async function customer(t: TestApp): Promise<{ client: TestClient; id: string; email: string }> {
  const email = `tracking-${Date.now().toString(36)}-${counter}@example.com`;
  const client = t.client({ ip: `192.0.2.${(counter++ % 250) + 1}` });
  const body = await json<{ user: { id: string } }>(
    await signUpAndIn(client, { email, password: 'pebble-garden-33' }),
    200,
  );
  return { client, id: body.user.id, email };
}

describe.each(BACKENDS)('tracking info on %s', (backend) => {
  let t: TestApp;
  let usps: FakeUsps;
  beforeAll(async () => {
    usps = await startFakeUsps();
    t = await startTestApp({ backend, env: { USPS_API_URL: usps.url } });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await usps.close();
  });

  const track = (client: TestClient, trackingNumber: string) =>
    client.post('/api/tracking-info', { trackingNumber });

  it("answers 'not available' until the carrier's credentials are set, then the carrier's status, cached", async () => {
    const a = await customer(t);
    const number = '9400111899223817000001';
    await createOrder(t.deps.database.db, { userId: a.id, status: 'shipped', trackingNumber: number });
    usps.parcels.set(number, {
      status: 'Arrived at USPS Regional Facility',
      statusCategory: 'In Transit',
      events: [
        {
          eventType: 'Accepted at USPS Origin Facility',
          eventTimestamp: '2026-11-20T09:15:00Z',
          eventCity: 'PORTLAND',
          eventState: 'OR',
        },
        {
          eventType: 'Arrived at USPS Regional Facility',
          eventTimestamp: '2026-11-22T14:10:00Z',
          eventCity: 'SAN FRANCISCO',
          eventState: 'CA',
        },
      ],
    });

    expect(await json<TrackingInfo>(await track(a.client, number), 200)).toEqual(TRACKING_UNAVAILABLE);
    expect(usps.hits.tracking).toBe(0);

    await t.deps.settings.setSecret('carrier', 'client_id', usps.credentials.clientId);
    await t.deps.settings.setSecret('carrier', 'client_secret', usps.credentials.clientSecret);
    // Spaces and case are the shopper's; the number is the same.
    const info = await json<TrackingInfo>(
      await track(a.client, ` ${number.slice(0, 4)} ${number.slice(4)} `),
      200,
    );
    expect(info).toEqual({
      available: true,
      status: 'Arrived at USPS Regional Facility',
      location: 'San Francisco, CA',
      timestamp: '2026-11-22T14:10:00.000Z',
    });
    const hits = { ...usps.hits };
    expect(await json<TrackingInfo>(await track(a.client, number), 200)).toEqual(info);
    expect(usps.hits).toEqual(hits);
  });

  it("refuses numbers that are not on the caller's own orders, signed-out callers and bad input", async () => {
    const a = await customer(t);
    const b = await customer(t);
    const number = '9400111899223817000002';
    await createOrder(t.deps.database.db, { userId: b.id, status: 'shipped', trackingNumber: number });
    await json(await track(a.client, number), 404);
    await json(await track(a.client, '9400111899223817999999'), 404);
    await json(await track(t.client(), number), 401);
    const bad = await json<ErrorJson>(await track(b.client, '<script>'), 400);
    expect(bad.error.fields?.trackingNumber).toBe('Please enter a valid tracking number');
    await json(await b.client.post('/api/tracking-info', {}), 400);
    // An email-matched order counts once the email is confirmed.
    const byEmail = '9400111899223817000003';
    await createOrder(t.deps.database.db, {
      userId: null,
      email: a.email,
      status: 'shipped',
      trackingNumber: byEmail,
    });
    await json(await track(a.client, byEmail), 404);
    await t.deps.database.db
      .updateTable('users')
      .set({ email_verified: true })
      .where('id', '=', a.id)
      .execute();
    await json(await track(a.client, byEmail), 200);
  });
});

describe('tracking service', () => {
  let usps: FakeUsps;
  beforeAll(async () => {
    usps = await startFakeUsps();
  });
  afterAll(() => usps.close());

  function service(clock: { now: number }) {
    const lines: string[] = [];
    const settings = {
      getSecret: (_p: string, key: string) =>
        Promise.resolve(key === 'client_id' ? usps.credentials.clientId : usps.credentials.clientSecret),
    } as unknown as Parameters<typeof createTrackingService>[0]['settings'];
    const tracking = createTrackingService({
      settings,
      logger: createLogger('warn', { write: (line: string) => lines.push(line) }),
      carrier: createUspsCarrier({ baseUrl: usps.url, timeoutMs: 2000, fetch }),
      now: () => clock.now,
    });
    return { tracking, lines };
  }

  it("answers 'not available' when the carrier fails, logs it, and asks again after a minute", async () => {
    const clock = { now: Date.now() };
    const { tracking, lines } = service(clock);
    usps.parcels.set('9400111899223817000010', {
      status: 'Delivered, In/At Mailbox',
      statusCategory: 'Delivered',
      events: [
        {
          eventType: 'Delivered',
          eventTimestamp: '2026-11-23T16:02:00Z',
          eventCity: 'AUSTIN',
          eventState: 'TX',
        },
      ],
    });
    for (const mode of ['http-500', 'garbage'] as const) {
      usps.behaviour.mode = mode;
      const number = mode === 'http-500' ? '9400111899223817000010' : '9400111899223817000011';
      expect(await tracking.track(number)).toEqual(TRACKING_UNAVAILABLE);
      expect(lines.at(-1)).toContain('carrier tracking failed');
    }
    const before = usps.hits.tracking;
    expect(await tracking.track('9400111899223817000010')).toEqual(TRACKING_UNAVAILABLE);
    expect(usps.hits.tracking).toBe(before);

    usps.behaviour.mode = 'ok';
    clock.now += 61_000;
    expect(await tracking.track('9400111899223817000010')).toMatchObject({
      available: true,
      status: 'Delivered, In/At Mailbox',
      location: 'Austin, TX',
    });
    // An unknown number is not an error: not available, nothing logged.
    const logged = lines.length;
    expect(await tracking.track('9400111899223817099999')).toEqual(TRACKING_UNAVAILABLE);
    expect(lines.length).toBe(logged);
  });
});
