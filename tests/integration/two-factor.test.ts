/**
 * Two-factor sign-in on the real app and database, with codes made in the test by otplib from the
 * secret the enable step hands out: on only after a first code; sign-in then needs a code (or a
 * backup code, once) before any session exists; a wrong code is refused; turning it off needs the
 * password and a code; ADMIN_REQUIRE_2FA keeps an admin without it out of the back office.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TwoFactorEnableResponse } from '#common/schemas/auth';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { json, signInClients } from './admin-test-kit';
import { signUpAndIn } from '../helpers/sign-up';

const PASSWORD = 'silver-orchard-85';
let counter = 0;
const newEmail = () => `twofa-${Date.now().toString(36)}-${counter++}@example.com`;
// better-auth allows a few two-factor requests per address and 10 s: each test device has its own.
let device = 10;
const deviceIp = () => `10.0.${Math.floor(++device / 250)}.${device % 250}`;

const secretOf = (totpURI: string) => new URL(totpURI).searchParams.get('secret')!;
const codeFor = (secret: string) => generate({ secret });

async function signUp(t: TestApp): Promise<{ client: TestClient; email: string }> {
  const email = newEmail();
  const client = t.client({ ip: deviceIp() });
  await json(await signUpAndIn(client, { email, password: PASSWORD }), 200);
  return { client, email };
}

async function enable(client: TestClient): Promise<TwoFactorEnableResponse & { secret: string }> {
  const started = await json<TwoFactorEnableResponse>(
    await client.post('/api/auth/two-factor/enable', { password: PASSWORD }),
    200,
  );
  expect(started.totpURI).toMatch(/^otpauth:\/\/totp\/Aelo:/);
  expect(started.backupCodes.length).toBeGreaterThanOrEqual(8);
  const secret = secretOf(started.totpURI);
  await json(await client.post('/api/auth/two-factor/confirm', { code: await codeFor(secret) }), 200);
  return { ...started, secret };
}

describe.each(BACKENDS)('two-factor sign-in on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  }, 60_000);
  afterAll(() => t.close());

  it('is on only after a code from the app confirms it', async () => {
    const { client } = await signUp(t);
    expect(await json(await client.get('/api/auth/two-factor'), 200)).toEqual({ enabled: false });
    await json(await client.post('/api/auth/two-factor/enable', { password: 'wrong-password-1' }), 400);
    const started = await json<TwoFactorEnableResponse>(
      await client.post('/api/auth/two-factor/enable', { password: PASSWORD }),
      200,
    );
    expect(await json(await client.get('/api/auth/two-factor'), 200)).toEqual({ enabled: false });
    await json(await client.post('/api/auth/two-factor/confirm', { code: '000000' }), 400);
    const code = await codeFor(secretOf(started.totpURI));
    await json(await client.post('/api/auth/two-factor/confirm', { code }), 200);
    expect(await json(await client.get('/api/auth/two-factor'), 200)).toEqual({ enabled: true });
    await json(await t.client().get('/api/auth/two-factor'), 401);
  });

  it('asks for a code at sign-in before any session exists, and takes a backup code once', async () => {
    const { client, email } = await signUp(t);
    const { secret, backupCodes } = await enable(client);

    const phone = t.client({ ip: deviceIp() });
    const first = await json<{ twoFactorRequired?: boolean; user?: unknown }>(
      await phone.post('/api/auth/sign-in/email', { email, password: PASSWORD }),
      200,
    );
    expect(first).toEqual({ twoFactorRequired: true });
    expect(await json(await phone.get('/api/auth/me'), 200)).toEqual({ user: null });
    await json(await phone.post('/api/auth/two-factor/verify', { code: '123456' }), 400);
    const done = await json<{ user: { email: string } }>(
      await phone.post('/api/auth/two-factor/verify', { code: await codeFor(secret) }),
      200,
    );
    expect(done.user.email).toBe(email);
    expect(await json<{ user: { email: string } }>(await phone.get('/api/auth/me'), 200)).toMatchObject({
      user: { email },
    });

    // A backup code works once.
    for (const expected of [200, 400]) {
      const laptop = t.client({ ip: deviceIp() });
      await json(await laptop.post('/api/auth/sign-in/email', { email, password: PASSWORD }), 200);
      await json(
        await laptop.post('/api/auth/two-factor/verify', { code: backupCodes[0], kind: 'backup' }),
        expected,
      );
    }
    // No challenge, no session: a code alone signs nobody in.
    await json(
      await t.client({ ip: deviceIp() }).post('/api/auth/two-factor/verify', { code: await codeFor(secret) }),
      401,
    );
  });

  it('turns off with the password and a current code only', async () => {
    const { client, email } = await signUp(t);
    const { secret } = await enable(client);
    await json(
      await client.post('/api/auth/two-factor/disable', { password: PASSWORD, code: '000000' }),
      400,
    );
    await json(
      await client.post('/api/auth/two-factor/disable', {
        password: 'wrong-password-1',
        code: await codeFor(secret),
      }),
      400,
    );
    expect(await json(await client.get('/api/auth/two-factor'), 200)).toEqual({ enabled: true });
    await json(
      await client.post('/api/auth/two-factor/disable', { password: PASSWORD, code: await codeFor(secret) }),
      200,
    );
    expect(await json(await client.get('/api/auth/two-factor'), 200)).toEqual({ enabled: false });
    const again = await json<{ user?: { email: string } }>(
      await t.client({ ip: deviceIp() }).post('/api/auth/sign-in/email', { email, password: PASSWORD }),
      200,
    );
    expect(again.user?.email).toBe(email);
  });
});

describe('ADMIN_REQUIRE_2FA', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend: 'pglite', env: { ADMIN_REQUIRE_2FA: 'true' } });
  }, 60_000);
  afterAll(() => t.close());

  it('keeps an admin without two-factor out of the back office until it is on', async () => {
    const { admin } = await signInClients(t);
    const refused = await json<{ error: { message: string } }>(await admin.get('/api/admin/dashboard'), 403);
    expect(refused.error.message).toMatch(/Two-factor authentication is required/);
    const started = await json<TwoFactorEnableResponse>(
      await admin.post('/api/auth/two-factor/enable', { password: 'admin-pass-1234' }),
      200,
    );
    await json(
      await admin.post('/api/auth/two-factor/confirm', { code: await codeFor(secretOf(started.totpURI)) }),
      200,
    );
    await json(await admin.get('/api/admin/dashboard'), 200);
  });
});
