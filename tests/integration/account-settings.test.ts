/**
 * /api/account/settings, /api/auth/sessions and /api/auth/password: a customer reads and changes
 * only their own settings and sessions; the spec's validation messages and notification defaults;
 * a password change signs every other device out and keeps this one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_TEXTS, type ProfileSettings } from '#common/schemas/account-settings';
import { SESSION_TEXTS, type AccountSessionList } from '#common/schemas/auth';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { json, type ErrorJson } from './admin-test-kit';
import { signUpAndIn } from '../helpers/sign-up';

let counter = 0;
/** Each client its own address, so better-auth's per-address sign-up limit stays out of the way. */
const nextIp = () => `198.51.100.${(counter++ % 250) + 1}`;
const PASSWORD = 'pebble-garden-33';
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function customer(t: TestApp) {
  const email = `settings-${Date.now().toString(36)}-${counter++}@example.com`;
  const client = t.client({ ip: nextIp() });
  const body = await json<{ user: { id: string } }>(
    await signUpAndIn(client, { email, password: PASSWORD }, { headers: { 'user-agent': CHROME_MAC } }),
    200,
  );
  return { client, id: body.user.id, email };
}

async function signIn(
  t: TestApp,
  email: string,
  password = PASSWORD,
  userAgent = SAFARI_IPHONE,
): Promise<TestClient> {
  const client = t.client({ ip: nextIp() });
  await json(
    await client.post(
      '/api/auth/sign-in/email',
      { email, password },
      { headers: { 'user-agent': userAgent } },
    ),
    200,
  );
  return client;
}

describe.each(BACKENDS)('account settings and sessions on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  }, 60_000);
  afterAll(() => t.close());

  const full = {
    firstName: ' Maya ',
    lastName: 'Lindqvist',
    phone: '(415) 555-0134',
    address: '220 Mission St',
    city: 'San Francisco',
    state: 'ca',
    zipCode: '94105-1234',
    country: 'US',
    notifications: { email: false, sms: true, marketing: false },
  };

  it("starts from the spec's defaults, saves the customer's own settings and never another's", async () => {
    const a = await customer(t);
    const b = await customer(t);
    const empty = await json<ProfileSettings>(await a.client.get('/api/account/settings'), 200);
    expect(empty).toMatchObject({
      email: a.email,
      firstName: '',
      notifications: { email: true, sms: false, marketing: true },
      updatedAt: null,
    });

    // An email, a user id or another user's id in the body change nothing but the caller's own row.
    const saved = await json<ProfileSettings>(
      await a.client.put('/api/account/settings', { ...full, email: 'evil@example.com', userId: b.id }),
      200,
    );
    expect(saved).toMatchObject({
      email: a.email,
      firstName: 'Maya',
      state: 'CA',
      zipCode: '94105-1234',
      notifications: { email: false, sms: true, marketing: false },
    });
    expect(saved.updatedAt).not.toBeNull();
    expect(await json<ProfileSettings>(await a.client.get('/api/account/settings'), 200)).toEqual(saved);
    const others = await json<ProfileSettings>(await b.client.get('/api/account/settings'), 200);
    expect(others).toMatchObject({ email: b.email, firstName: '', updatedAt: null });

    // Saving again replaces the row; optional fields may be cleared.
    const cleared = await json<ProfileSettings>(
      await a.client.put('/api/account/settings', { firstName: 'Maya' }),
      200,
    );
    expect(cleared).toMatchObject({
      firstName: 'Maya',
      phone: '',
      notifications: { email: true, sms: false, marketing: true },
    });

    await json(await t.client().get('/api/account/settings'), 401);
    await json(await t.client().put('/api/account/settings', full), 401);
  });

  it('refuses bad settings with the spec messages', async () => {
    const a = await customer(t);
    const bad = async (body: Record<string, unknown>, field: string, message: string) => {
      const err = await json<ErrorJson>(await a.client.put('/api/account/settings', body), 400);
      expect(err.error.fields?.[field]).toBe(message);
    };
    await bad({ phone: '555-0134' }, 'phone', SETTINGS_TEXTS.phone);
    await bad({ phone: '1 (415) 555-01345' }, 'phone', SETTINGS_TEXTS.phone);
    await bad({ zipCode: '9410' }, 'zipCode', SETTINGS_TEXTS.zip);
    await bad({ zipCode: '94105-12' }, 'zipCode', SETTINGS_TEXTS.zip);
    await bad({ state: 'Ontario' }, 'state', SETTINGS_TEXTS.state);
    await bad({ city: 'x'.repeat(101) }, 'city', 'At most 100 characters');
    await bad(
      { notifications: { email: 'yes' } },
      'notifications.email',
      'Invalid input: expected boolean, received string',
    );
    // Ten digits whatever the punctuation; ZIP+4 allowed.
    await json(await a.client.put('/api/account/settings', { phone: '415.555.0134', zipCode: '94105' }), 200);
  });

  it("lists the customer's devices, signs one or all others out, never another user's", async () => {
    const a = await customer(t);
    const phone = await signIn(t, a.email);
    const b = await customer(t);

    const list = await json<AccountSessionList>(await a.client.get('/api/auth/sessions'), 200);
    expect(list.sessions).toHaveLength(2);
    expect(list.sessions[0]).toMatchObject({ current: true, device: 'Chrome on macOS' });
    expect(list.sessions[1]).toMatchObject({ current: false, device: 'Safari on iPhone' });
    const phoneSession = list.sessions[1]!.id;

    // B cannot see or end A's sessions; A cannot end the current one by id.
    const bList = await json<AccountSessionList>(await b.client.get('/api/auth/sessions'), 200);
    expect(bList.sessions.map((s) => s.id)).not.toContain(phoneSession);
    await json(await b.client.delete(`/api/auth/sessions/${phoneSession}`), 404);
    await json(await a.client.delete(`/api/auth/sessions/${list.sessions[0]!.id}`), 400);
    expect((await json<{ user: unknown }>(await phone.get('/api/auth/me'), 200)).user).not.toBeNull();

    await json(await a.client.delete(`/api/auth/sessions/${phoneSession}`), 200);
    expect((await json<{ user: unknown }>(await phone.get('/api/auth/me'), 200)).user).toBeNull();

    const laptop = await signIn(t, a.email, PASSWORD, CHROME_MAC);
    const tablet = await signIn(t, a.email);
    expect(await json(await a.client.post('/api/auth/sessions/revoke-others'), 200)).toEqual({ revoked: 2 });
    for (const other of [laptop, tablet]) {
      expect((await json<{ user: unknown }>(await other.get('/api/auth/me'), 200)).user).toBeNull();
    }
    expect((await json<{ user: unknown }>(await a.client.get('/api/auth/me'), 200)).user).not.toBeNull();
    expect((await json<{ user: unknown }>(await b.client.get('/api/auth/me'), 200)).user).not.toBeNull();
    await json(await t.client().get('/api/auth/sessions'), 401);
    await json(await t.client().post('/api/auth/sessions/revoke-others'), 401);
  });

  it('changes the password with the current one and signs every other device out', async () => {
    const a = await customer(t);
    const other = await signIn(t, a.email);
    const wrong = await json<ErrorJson>(
      await a.client.post('/api/auth/password', {
        currentPassword: 'not-my-password',
        newPassword: 'tidal-harbor-88',
      }),
      400,
    );
    expect(wrong.error.fields?.currentPassword).toBe(SESSION_TEXTS.wrongPassword);
    const same = await json<ErrorJson>(
      await a.client.post('/api/auth/password', { currentPassword: PASSWORD, newPassword: PASSWORD }),
      400,
    );
    expect(same.error.fields?.newPassword).toBe(SESSION_TEXTS.samePassword);
    const short = await json<ErrorJson>(
      await a.client.post('/api/auth/password', { currentPassword: PASSWORD, newPassword: 'short' }),
      400,
    );
    expect(short.error.fields?.newPassword).toBe('Password must be at least 8 characters');
    const common = await json<ErrorJson>(
      await a.client.post('/api/auth/password', { currentPassword: PASSWORD, newPassword: 'password123' }),
      400,
    );
    expect(common.error.fields?.newPassword).toMatch(/too common/);

    expect(
      await json(
        await a.client.post('/api/auth/password', {
          currentPassword: PASSWORD,
          newPassword: 'tidal-harbor-88',
        }),
        200,
      ),
    ).toEqual({ ok: true, revoked: 1 });
    expect((await json<{ user: unknown }>(await other.get('/api/auth/me'), 200)).user).toBeNull();
    expect((await json<{ user: unknown }>(await a.client.get('/api/auth/me'), 200)).user).not.toBeNull();
    await json(await t.client().post('/api/auth/sign-in/email', { email: a.email, password: PASSWORD }), 401);
    await signIn(t, a.email, 'tidal-harbor-88');
    await json(
      await t.client().post('/api/auth/password', { currentPassword: 'x', newPassword: 'tidal-harbor-99' }),
      401,
    );
  });

  it('stops guessing the current password after five tries in a quarter hour', async () => {
    const a = await customer(t);
    for (let i = 0; i < 5; i++) {
      await json(
        await a.client.post('/api/auth/password', {
          currentPassword: `guess-${i}`,
          newPassword: 'tidal-harbor-88',
        }),
        400,
      );
    }
    const res = await a.client.post('/api/auth/password', {
      currentPassword: PASSWORD,
      newPassword: 'tidal-harbor-88',
    });
    expect(res.status).toBe(429);
  });
});
