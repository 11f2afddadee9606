/**
 * The account's email flows on the real app and database, with mail through the outbox as a
 * newcomer gets it (no SMTP_URL: each mail an .eml file in DATA_DIR/outbox): the confirmation
 * link mailed at sign-up confirms the address once; a reset link works once, changes the password
 * and signs every session out; a mail is written once per event and sent once, even when the
 * sender fails once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailService, type OutgoingMail } from '#server/modules/mail/mail.service';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, TEST_ORIGIN, type TestApp, type TestClient } from '../helpers/test-app';
import { json } from './admin-test-kit';
import { signUpAndIn } from '../helpers/sign-up';

let counter = 0;
const newEmail = () => `shopper-${Date.now().toString(36)}-${counter++}@example.com`;

/** The outbox's files, decoded (quoted-printable soft breaks joined), newest last. */
function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((f) =>
    readFileSync(path.join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  );
}

/** The token of the newest mailed link to `page` for `email`. */
async function mailedToken(
  t: TestApp,
  email: string,
  page: 'verify-email' | 'reset-password',
): Promise<string> {
  await t.deps.mail.sendDue();
  const mail = outbox(t)
    .filter((m) => m.includes(`To: ${email}`))
    .reverse()
    .find((m) => m.includes(`/${page}?token=`));
  expect(mail, `a ${page} mail to ${email}`).toBeDefined();
  const match = new RegExp(`/${page}\\?token=([^\\s"<&]+)`).exec(mail!);
  return decodeURIComponent(match![1]!);
}

async function signUp(t: TestApp, email: string, password = 'correct-horse-7'): Promise<TestClient> {
  const client = t.client();
  await json(await signUpAndIn(client, { email, password }), 200);
  return client;
}

/** A mail service on the app's outbox whose transport records what it sends, refusing the first `failures`. */
function recordingMail(t: TestApp, failures = 0) {
  const sent: string[] = [];
  let refusals = failures;
  const mail = createMailService({
    db: t.deps.database.db,
    logger: t.deps.logger,
    // SMTP's stand-in: refuses the first messages, as a server that is down for a moment does.
    transport: {
      concurrency: 1,
      close() {},
      send(message) {
        if (refusals-- > 0) return Promise.reject(new Error('421 Service not available'));
        sent.push(message.eventKey);
        return Promise.resolve();
      },
    },
  });
  return { mail, sent };
}

const testMail = (kind: string): OutgoingMail => ({
  eventKey: `${kind}:${newEmail()}`,
  to: newEmail(),
  subject: 'Hello',
  text: 'Hello',
  html: null,
});

describe.each(BACKENDS)('account email flows on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  }, 60_000);
  afterAll(() => t.close());

  it('mails a confirmation link at sign-up that confirms the address once', async () => {
    const email = newEmail();
    const client = await signUp(t, email);
    expect(await json(await client.get('/api/auth/email-verification'), 200)).toEqual({
      email,
      verified: false,
    });

    const token = await mailedToken(t, email, 'verify-email');
    const file = outbox(t).find((m) => m.includes(`To: ${email}`))!;
    expect(file).toMatch(/^Subject: Confirm your email address$/m);
    expect(file).toContain(`${TEST_ORIGIN}/verify-email?token=`);

    // The account's creator confirms with its password; their session is renewed (every earlier
    // one ends: account-hijack.test.ts).
    await json(
      await client.post('/api/auth/verify-email', { token, mode: 'current', password: 'correct-horse-7' }),
      200,
    );
    expect(await json(await client.get('/api/auth/email-verification'), 200)).toEqual({
      email,
      verified: true,
    });
    const again = await json<{ error: { message: string } }>(
      await t.client().post('/api/auth/verify-email', {
        token: `${token}x`,
        mode: 'current',
        password: 'correct-horse-7',
      }),
      400,
    );
    expect(again.error.message).toMatch(/invalid or has expired/);
  });

  it('sends a new confirmation link on request, a few times at most', async () => {
    const email = newEmail();
    const client = await signUp(t, email);
    await json(await client.post('/api/auth/email-verification/resend'), 200);
    await json(await client.post('/api/auth/email-verification/resend'), 200);
    await json(await client.post('/api/auth/email-verification/resend'), 200);
    await json(await client.post('/api/auth/email-verification/resend'), 429);
    await json(await t.client().post('/api/auth/email-verification/resend'), 401);
    // The newest link confirms the address (links of the same second are one mail: one token).
    await json(
      await client.post('/api/auth/verify-email', {
        token: await mailedToken(t, email, 'verify-email'),
        mode: 'current',
        password: 'correct-horse-7',
      }),
      200,
    );
    expect(await json(await client.get('/api/auth/email-verification'), 200)).toEqual({
      email,
      verified: true,
    });
    // A confirmed address asks for nothing more.
    await json(await client.post('/api/auth/email-verification/resend'), 200);
  });

  it('resets a password by a mailed link that works once and signs every session out', async () => {
    const email = newEmail();
    const phone = await signUp(t, email);
    const laptop = t.client();
    await json(await laptop.post('/api/auth/sign-in/email', { email, password: 'correct-horse-7' }), 200);

    // An address without an account gets the same answer, and no mail.
    const unknown = newEmail();
    await json(await t.client().post('/api/auth/forgot-password', { email: unknown }), 200);
    await json(await t.client().post('/api/auth/forgot-password', { email }), 200);
    const token = await mailedToken(t, email, 'reset-password');
    expect(outbox(t).some((m) => m.includes(`To: ${unknown}`))).toBe(false);

    const common = await json<{ error: { fields: Record<string, string> } }>(
      await t.client().post('/api/auth/reset-password', { token, password: 'password123' }),
      400,
    );
    expect(common.error.fields.password).toBeDefined();
    await json(await t.client().post('/api/auth/reset-password', { token, password: 'new-saddle-93' }), 200);
    await json(
      await t.client().post('/api/auth/reset-password', { token, password: 'other-saddle-93' }),
      400,
    );

    for (const client of [phone, laptop]) {
      expect(await json(await client.get('/api/auth/me'), 200)).toEqual({ user: null });
    }
    await json(await t.client().post('/api/auth/sign-in/email', { email, password: 'correct-horse-7' }), 401);
    await json(await t.client().post('/api/auth/sign-in/email', { email, password: 'new-saddle-93' }), 200);
  });

  it('sends a mail queued a moment ago on the next pass (due by the clock that stamped it)', async () => {
    const { mail, sent } = recordingMail(t);
    await mail.sendDue(); // whatever earlier tests left queued
    sent.length = 0;
    // The database stamps a queued mail in microseconds, JavaScript reads whole milliseconds: a
    // pass at once after the mail was queued could count it as not yet due.
    for (let i = 0; i < 40; i++) {
      expect(await mail.enqueue(testMail('due-now'))).toBe(true);
      expect(await mail.sendDue(), `pass ${i}`).toBe(1);
    }
    expect(sent).toHaveLength(40);
  });

  it('writes one mail per event and sends it once, even when the sender fails once', async () => {
    const { mail, sent } = recordingMail(t, 1);
    const message = testMail('test-event');
    expect(await mail.enqueue(message)).toBe(true);
    expect(await mail.enqueue(message)).toBe(false);

    const now = Date.now();
    expect(await mail.sendDue(new Date(now + 1_000))).toBe(0);
    const failed = await t.deps.database.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts', 'last_error'])
      .where('event_key', '=', message.eventKey)
      .executeTakeFirstOrThrow();
    expect(failed).toEqual({ status: 'pending', attempts: 1, last_error: '421 Service not available' });
    // Not before its retry time; then once, and never again.
    expect(await mail.sendDue(new Date(now + 2_000))).toBe(0);
    expect(await mail.sendDue(new Date(now + 120_000))).toBe(1);
    expect(await mail.sendDue(new Date(now + 999_000))).toBe(0);
    expect(sent).toEqual([message.eventKey]);
  });
});
