/**
 * Pre-account hijack through email confirmation, and sign-up's answers. An attacker who creates an
 * account with someone else's address (on /login or with a paid order at checkout) and keeps a
 * session on it must never see that person's guest orders: confirming the address asks the person
 * confirming for a new password (or the account's current one), ends every session of the account
 * and only then matches orders by email. Sign-up answers the same whether or not the address has an
 * account (its owner gets a mail instead), and weak passwords are refused with zxcvbn's feedback.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerOrdersResponse } from '#common/schemas/customer-orders';
import { checkout as startCheckout, postCheckout } from '../factories/checkout';
import { createOrder } from '../factories/order';
import { startFakeStripe, stripeEnv, type FakeStripeServer } from '../fakes/stripe-server';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { json, type ErrorJson } from './admin-test-kit';

let counter = 0;
const newEmail = (prefix = 'victim') => `${prefix}-${Date.now().toString(36)}-${counter++}@example.com`;

const ATTACKER_PASSWORD = 'attacker-knows-this-91';
const VICTIM_PASSWORD = 'victims-own-lantern-58';

const SHIPPING = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '5551234567',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'US',
};

/** The outbox's files to `email`, decoded (quoted-printable soft breaks joined), oldest first. */
function mailsTo(t: TestApp, email: string): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files
    .map((f) =>
      readFileSync(path.join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    )
    .filter((m) => m.includes(`To: ${email}`));
}

/** The plain-text part of a mail file. */
function textPart(mail: string): string {
  const start = mail.indexOf('Content-Type: text/plain');
  const end = mail.indexOf('Content-Type: text/html');
  return start === -1 ? mail : mail.slice(start, end === -1 ? undefined : end);
}

/** The token of the newest confirmation link mailed to `email`. */
async function confirmationToken(t: TestApp, email: string): Promise<string> {
  await t.deps.mail.sendDue();
  const mail = mailsTo(t, email)
    .reverse()
    .find((m) => m.includes('/verify-email?token='));
  expect(mail, `a confirmation mail to ${email}`).toBeDefined();
  return decodeURIComponent(/\/verify-email\?token=([^\s"<&]+)/.exec(mail!)![1]!);
}

async function isVerified(t: TestApp, email: string): Promise<boolean> {
  const row = await t.deps.database.db
    .selectFrom('users')
    .select('email_verified')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.email_verified;
}

async function sessionCount(t: TestApp, email: string): Promise<number> {
  const rows = await t.deps.database.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.id')
    .where('users.email', '=', email)
    .execute();
  return rows.length;
}

async function signIn(t: TestApp, email: string, password: string): Promise<TestClient> {
  const client = t.client();
  await json(await client.post('/api/auth/sign-in/email', { email, password }), 200);
  return client;
}

const orderIds = async (client: TestClient) =>
  (await json<CustomerOrdersResponse>(await client.get('/api/orders'), 200)).orders.map((o) => o.id);

/** The shape of a JSON value: its keys and the types of their values, recursively. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shapeOf(v)]),
    );
  return value === null ? 'null' : typeof value;
}

describe.each(BACKENDS)('account hijack through email confirmation on %s', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({
      backend,
      env: {
        ...stripeEnv(fake),
        CHECKOUT_RATE_LIMIT: '1000',
        CHECKOUT_MAX_OPEN_PER_CLIENT: '1000',
        SIGN_UP_RATE_LIMIT: '1000',
      },
    });
    fake.setWebhook(async (req) => t.app.request(req));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** A paid card order to `email`; with `createAccount`, the account asked for at checkout. */
  async function paidOrder(email: string, createAccount?: string): Promise<string> {
    const body = await startCheckout(t, {
      paymentMethod: 'card',
      product: { quantity: 3 },
      shippingInfo: { ...SHIPPING, email },
      ...(createAccount
        ? { createAccount: { password: createAccount, confirmPassword: createAccount } }
        : {}),
    });
    await fake.completeSession(fake.lastSession()!.session.id);
    const order = await t.deps.database.db
      .selectFrom('orders')
      .innerJoin('payments', 'payments.id', 'orders.payment_id')
      .select('orders.id')
      .where('payments.reference', '=', body.reference)
      .executeTakeFirstOrThrow();
    return order.id;
  }

  it("a sign-up with the victim's address never sees the victim's guest orders once the victim confirms", async () => {
    const victim = newEmail();
    const guestOrder = await createOrder(t.deps.database.db, { userId: null, email: victim });

    // The attacker signs up with the victim's address and their own password, and signs in.
    await json(
      await t.client().post('/api/auth/sign-up/email', { email: victim, password: ATTACKER_PASSWORD }),
      200,
    );
    const attacker = await signIn(t, victim, ATTACKER_PASSWORD);
    expect(await orderIds(attacker)).toEqual([]);

    // The victim opens the mailed link: it names the account and asks for a new password.
    const token = await confirmationToken(t, victim);
    const preview = await json<{ email: string; createdAt: string; verified: boolean }>(
      await t.client().get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`),
      200,
    );
    expect(preview).toMatchObject({ email: victim, verified: false });
    expect(Date.now() - new Date(preview.createdAt).getTime()).toBeLessThan(60_000);

    const victimClient = t.client();
    const confirmed = await victimClient.post('/api/auth/verify-email', {
      token,
      password: VICTIM_PASSWORD,
      mode: 'set',
    });
    expect(await json(confirmed, 200)).toMatchObject({ email: victim, signedIn: true });

    // Every earlier session of the account is gone: the attacker is signed out and saw nothing.
    expect(await json(await attacker.get('/api/auth/me'), 200)).toEqual({ user: null });
    await json(await attacker.get('/api/orders'), 401);
    // The attacker's password no longer works; the victim's does.
    await json(
      await t.client().post('/api/auth/sign-in/email', { email: victim, password: ATTACKER_PASSWORD }),
      401,
    );
    // The victim is signed in (a session made after the confirmation) and sees the guest order.
    expect(await sessionCount(t, victim)).toBe(1);
    expect(await orderIds(victimClient)).toEqual([guestOrder.id]);
    expect(await orderIds(await signIn(t, victim, VICTIM_PASSWORD))).toEqual([guestOrder.id]);
  });

  it('opening the link without the password step confirms nothing', async () => {
    const victim = newEmail();
    await createOrder(t.deps.database.db, { userId: null, email: victim });
    await json(
      await t.client().post('/api/auth/sign-up/email', { email: victim, password: ATTACKER_PASSWORD }),
      200,
    );
    const attacker = await signIn(t, victim, ATTACKER_PASSWORD);
    const token = await confirmationToken(t, victim);

    // What the page used to send by itself: the token alone.
    await json(await t.client().post('/api/auth/verify-email', { token }), 400);
    // A wrong current password, or a weak new one, confirms nothing either.
    const wrong = await json<ErrorJson>(
      await t
        .client()
        .post('/api/auth/verify-email', { token, password: 'not-the-password-42', mode: 'current' }),
      400,
    );
    expect(wrong.error.fields?.password).toBeDefined();
    const weak = await json<ErrorJson>(
      await t.client().post('/api/auth/verify-email', { token, password: 'Summer2026!', mode: 'set' }),
      400,
    );
    expect(weak.error.fields?.password).toMatch(/easy to guess/);
    // A tampered token neither.
    await json(
      await t
        .client()
        .post('/api/auth/verify-email', { token: `${token}x`, password: VICTIM_PASSWORD, mode: 'set' }),
      400,
    );

    expect(await isVerified(t, victim)).toBe(false);
    expect(await orderIds(attacker)).toEqual([]);
    expect(await json(await attacker.get('/api/auth/me'), 200)).toMatchObject({ user: { email: victim } });
  });

  it("the account's creator may confirm with its current password; every other session still ends", async () => {
    const email = newEmail('creator');
    const order = await createOrder(t.deps.database.db, { userId: null, email });
    await json(await t.client().post('/api/auth/sign-up/email', { email, password: VICTIM_PASSWORD }), 200);
    const laptop = await signIn(t, email, VICTIM_PASSWORD);
    const token = await confirmationToken(t, email);

    const phone = t.client();
    expect(
      await json(
        await phone.post('/api/auth/verify-email', { token, password: VICTIM_PASSWORD, mode: 'current' }),
        200,
      ),
    ).toMatchObject({ email, signedIn: true });
    expect(await isVerified(t, email)).toBe(true);
    expect(await json(await laptop.get('/api/auth/me'), 200)).toEqual({ user: null });
    expect(await orderIds(phone)).toEqual([order.id]);

    // The link has done its work: a second use changes nothing (no password set through it).
    await json(
      await t.client().post('/api/auth/verify-email', { token, password: 'another-lantern-77', mode: 'set' }),
      400,
    );
    await json(await t.client().post('/api/auth/sign-in/email', { email, password: VICTIM_PASSWORD }), 200);
  });

  it("the same through checkout's Create Account", async () => {
    const victim = newEmail();
    const guestOrder = await createOrder(t.deps.database.db, { userId: null, email: victim });
    // The attacker pays an order to the victim's address and asks for an account with it.
    const attackersOrder = await paidOrder(victim, ATTACKER_PASSWORD);
    const attacker = await signIn(t, victim, ATTACKER_PASSWORD);
    expect(await orderIds(attacker)).toEqual([attackersOrder]);

    const token = await confirmationToken(t, victim);
    // The link names the account made at checkout (as sign-up's links do).
    const account = await t.deps.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', victim)
      .executeTakeFirstOrThrow();
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      userId?: string;
    };
    expect(payload.userId).toBe(account.id);
    const victimClient = t.client();
    await json(
      await victimClient.post('/api/auth/verify-email', { token, password: VICTIM_PASSWORD, mode: 'set' }),
      200,
    );
    expect(await json(await attacker.get('/api/auth/me'), 200)).toEqual({ user: null });
    await json(await attacker.get('/api/orders'), 401);
    await json(
      await t.client().post('/api/auth/sign-in/email', { email: victim, password: ATTACKER_PASSWORD }),
      401,
    );
    expect((await orderIds(victimClient)).sort()).toEqual([guestOrder.id, attackersOrder].sort());
  });

  it('the confirmation mail names the account it confirms and when it was created', async () => {
    const email = newEmail('mail');
    await json(await t.client().post('/api/auth/sign-up/email', { email, password: VICTIM_PASSWORD }), 200);
    const checkoutEmail = newEmail('mail-checkout');
    await paidOrder(checkoutEmail, VICTIM_PASSWORD);
    await t.deps.mail.sendDue();

    for (const address of [email, checkoutEmail]) {
      const created = await t.deps.database.db
        .selectFrom('users')
        .select('created_at')
        .where('email', '=', address)
        .executeTakeFirstOrThrow();
      const mail = mailsTo(t, address).find((m) => /^Subject: Confirm your email address$/m.test(m));
      expect(mail, `the confirmation mail to ${address}`).toBeDefined();
      const text = textPart(mail!).replace(/\s+/g, ' ');
      const day = created.created_at.toISOString().slice(0, 10);
      const [year, month, date] = day.split('-').map(Number) as [number, number, number];
      const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' }).format(
        new Date(Date.UTC(year, month - 1, 1)),
      );
      expect(text).toContain(address);
      expect(text).toContain(`${date} ${monthName} ${year}`);
      expect(text).toContain('UTC');
      expect(text).toMatch(/If you did not create this account, open the link and set a new password/);
    }
  });

  it('sign-up answers the same for a taken address, mails its owner, and signs no one in', async () => {
    const owner = newEmail('owner');
    await t.deps.auth.createUser({ email: owner, password: VICTIM_PASSWORD });
    await t.deps.database.db
      .updateTable('users')
      .set({ email_verified: true })
      .where('email', '=', owner)
      .execute();
    const fresh = newEmail('fresh');

    const taken = await t
      .client()
      .post('/api/auth/sign-up/email', { email: owner, password: ATTACKER_PASSWORD });
    const created = await t
      .client()
      .post('/api/auth/sign-up/email', { email: fresh, password: ATTACKER_PASSWORD });
    expect(taken.status).toBe(200);
    expect(created.status).toBe(200);
    const takenBody = (await taken.json()) as { user: { email: string; id: string } };
    const createdBody = (await created.json()) as { user: { email: string; id: string } };
    expect(shapeOf(takenBody)).toEqual(shapeOf(createdBody));
    expect(takenBody.user.email).toBe(owner);
    // Neither answer carries a session; the headers are the same.
    expect(taken.headers.getSetCookie()).toEqual([]);
    expect(created.headers.getSetCookie()).toEqual([]);
    expect([...taken.headers.keys()].sort()).toEqual([...created.headers.keys()].sort());

    // The owner is told, and their account is untouched.
    await t.deps.mail.sendDue();
    const notice = mailsTo(t, owner).find((m) => /^Subject: .*create an account/m.test(m));
    expect(notice, 'a mail to the owner').toBeDefined();
    expect(textPart(notice!)).toMatch(/reset your password/);
    await json(
      await t.client().post('/api/auth/sign-in/email', { email: owner, password: VICTIM_PASSWORD }),
      200,
    );
    await json(
      await t.client().post('/api/auth/sign-in/email', { email: owner, password: ATTACKER_PASSWORD }),
      401,
    );
    // The new address got its account and its confirmation mail.
    expect(await confirmationToken(t, fresh)).toBeTruthy();
  });

  it("a sign-up with the address of an unconfirmed account mails that account's confirmation link again", async () => {
    const victim = newEmail();
    await json(
      await t.client().post('/api/auth/sign-up/email', { email: victim, password: ATTACKER_PASSWORD }),
      200,
    );
    // Made two days ago (as the mail will say).
    const madeAt = new Date(Date.now() - 2 * 86_400_000);
    await t.deps.database.db
      .updateTable('users')
      .set({ created_at: madeAt })
      .where('email', '=', victim)
      .execute();
    const attacker = await signIn(t, victim, ATTACKER_PASSWORD);
    await t.deps.mail.sendDue();
    const before = mailsTo(t, victim).length;
    // Links of one second are one token, one mail: the owner comes later than the attacker.
    await new Promise((r) => setTimeout(r, 1100));

    // The address's owner tries to sign up: the same answer as ever, and a fresh link that names
    // the account and its date, with which they take the account over.
    await json(
      await t.client().post('/api/auth/sign-up/email', { email: victim, password: VICTIM_PASSWORD }),
      200,
    );
    await t.deps.mail.sendDue();
    const mails = mailsTo(t, victim);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)).toMatch(/^Subject: Confirm your email address$/m);
    expect(textPart(mails.at(-1)!).replace(/\s+/g, ' ')).toContain(`${madeAt.getUTCDate()} `);

    const owner = t.client();
    await json(
      await owner.post('/api/auth/verify-email', {
        token: await confirmationToken(t, victim),
        password: VICTIM_PASSWORD,
        mode: 'set',
      }),
      200,
    );
    expect(await json(await attacker.get('/api/auth/me'), 200)).toEqual({ user: null });
    expect(await json(await owner.get('/api/auth/me'), 200)).toMatchObject({ user: { email: victim } });
  });

  it("setting a new password also turns off two-factor the account's creator set up", async () => {
    const victim = newEmail();
    await json(
      await t.client().post('/api/auth/sign-up/email', { email: victim, password: ATTACKER_PASSWORD }),
      200,
    );
    // The creator turned two-factor on (its secret is theirs): the owner could never sign in.
    await t.deps.database.db
      .updateTable('users')
      .set({ two_factor_enabled: true })
      .where('email', '=', victim)
      .execute();
    const owner = t.client();
    const confirmed = await json(
      await owner.post('/api/auth/verify-email', {
        token: await confirmationToken(t, victim),
        password: VICTIM_PASSWORD,
        mode: 'set',
      }),
      200,
    );
    expect(confirmed).toEqual({ email: victim, signedIn: true, twoFactorRequired: false });
    const user = await t.deps.database.db
      .selectFrom('users')
      .select('two_factor_enabled')
      .where('email', '=', victim)
      .executeTakeFirstOrThrow();
    expect(user.two_factor_enabled).toBe(false);
    expect(await json(await owner.get('/api/auth/me'), 200)).toMatchObject({ user: { email: victim } });
  });

  it('refuses weak passwords on sign-up, reset, checkout and confirmation with zxcvbn feedback', async () => {
    for (const password of ['aaaaaaaa', 'aelo1234', 'Summer2026!']) {
      const res = await json<ErrorJson>(
        await t.client().post('/api/auth/sign-up/email', { email: newEmail('weak'), password }),
        400,
      );
      expect(res.error.code).toBe('VALIDATION_FAILED');
      expect(res.error.fields?.password, password).toMatch(/^This password is easy to guess\. .+/);
    }
    const repeated = await json<ErrorJson>(
      await t.client().post('/api/auth/sign-up/email', { email: newEmail('weak'), password: 'aaaaaaaa' }),
      400,
    );
    expect(repeated.error.fields?.password).toContain('Repeated characters');

    const { res: checkoutRes } = await postCheckout(t, {
      paymentMethod: 'card',
      product: { quantity: 3 },
      shippingInfo: { ...SHIPPING, email: newEmail('weak') },
      createAccount: { password: 'aelo1234', confirmPassword: 'aelo1234' },
    });
    const checkout = await json<ErrorJson>(checkoutRes, 400);
    expect(checkout.error.fields?.['createAccount.password']).toMatch(/^This password is easy to guess\./);

    const email = newEmail('weak-reset');
    await t.deps.auth.createUser({ email, password: VICTIM_PASSWORD });
    await json(await t.client().post('/api/auth/forgot-password', { email }), 200);
    await t.deps.mail.sendDue();
    const mail = mailsTo(t, email).find((m) => m.includes('/reset-password?token='))!;
    const resetToken = decodeURIComponent(/\/reset-password\?token=([^\s"<&]+)/.exec(mail)![1]!);
    const reset = await json<ErrorJson>(
      await t.client().post('/api/auth/reset-password', { token: resetToken, password: 'Summer2026!' }),
      400,
    );
    expect(reset.error.fields?.password).toMatch(/^This password is easy to guess\./);
    await json(
      await t
        .client()
        .post('/api/auth/reset-password', { token: resetToken, password: 'a-far-better-saddle-93' }),
      200,
    );
  });
});
