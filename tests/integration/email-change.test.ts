/**
 * Changing the account's email: the password, then a link mailed to the new address (through the
 * outbox as a newcomer gets it); the address changes only when the link is opened, confirmed; the
 * old address is told; a tampered, foreign, reused-after-a-later-change link does nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_TEXTS } from '#common/schemas/auth';
import { createOrder } from '../factories/order';
import { BACKENDS } from '../helpers/databases';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app';
import { json, type ErrorJson } from './admin-test-kit';
import { signUpAndIn } from '../helpers/sign-up';

let counter = 0;
const newEmail = () => `mover-${Date.now().toString(36)}-${counter++}@example.com`;
const PASSWORD = 'pebble-garden-33';

function mailsTo(t: TestApp, email: string): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  let files: string[] = [];
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

/** The newest confirmation link's query, mailed to `email`. */
async function mailedLink(
  t: TestApp,
  email: string,
): Promise<{ user: string; email: string; token: string }> {
  await t.deps.mail.sendDue();
  const mail = mailsTo(t, email)
    .reverse()
    .find((m) => m.includes('/confirm-email?'));
  expect(mail, `a confirmation mail to ${email}`).toBeDefined();
  const query = new URLSearchParams(/\/confirm-email\?([^\s"<]+)/.exec(mail!)![1]!.replace(/&amp;/g, '&'));
  return { user: query.get('user')!, email: query.get('email')!, token: query.get('token')! };
}

describe.each(BACKENDS)('changing the account email on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend });
  }, 60_000);
  afterAll(() => t.close());

  async function customer(): Promise<{ client: TestClient; email: string }> {
    const email = newEmail();
    const client = t.client({ ip: `198.18.0.${(counter % 250) + 1}` });
    await json(await signUpAndIn(client, { email, password: PASSWORD }), 200);
    return { client, email };
  }

  it('changes the email only once the new address confirms it, and tells the old one', async () => {
    const a = await customer();
    const next = newEmail();
    const byNewEmail = await createOrder(t.deps.database.db, { userId: null, email: next });
    await json(
      await a.client.post('/api/auth/change-email', {
        newEmail: ` ${next.toUpperCase()} `,
        password: PASSWORD,
      }),
      200,
    );
    // Nothing changed yet.
    expect(await json(await a.client.get('/api/auth/email-verification'), 200)).toEqual({
      email: a.email,
      verified: false,
    });

    const link = await mailedLink(t, next);
    expect(link.email).toBe(next);
    // Tampered: another address with the same token.
    const tampered = await json<ErrorJson>(
      await t.client().post('/api/auth/change-email/confirm', { ...link, email: newEmail() }),
      400,
    );
    expect(tampered.error.message).toBe(EMAIL_CHANGE_TEXTS.badLink);

    // The link works in any browser (the new inbox may be elsewhere).
    await json(await t.client().post('/api/auth/change-email/confirm', link), 200);
    expect(await json(await a.client.get('/api/auth/email-verification'), 200)).toEqual({
      email: next,
      verified: true,
    });
    await t.deps.mail.sendDue();
    expect(mailsTo(t, a.email).some((m) => m.includes('Your email address was changed'))).toBe(true);
    // Confirmed, so the orders shipped to it are the account's.
    const orders = await json<{ orders: Array<{ id: string }> }>(await a.client.get('/api/orders'), 200);
    expect(orders.orders.map((o) => o.id)).toContain(byNewEmail.id);
    // Sign-in takes the new address only.
    await json(await t.client().post('/api/auth/sign-in/email', { email: next, password: PASSWORD }), 200);
    await json(await t.client().post('/api/auth/sign-in/email', { email: a.email, password: PASSWORD }), 401);

    // A later change makes the earlier link useless (it cannot switch the address back).
    const third = newEmail();
    await json(await a.client.post('/api/auth/change-email', { newEmail: third, password: PASSWORD }), 200);
    const second = await mailedLink(t, third);
    await json(await t.client().post('/api/auth/change-email/confirm', second), 200);
    await json(await t.client().post('/api/auth/change-email/confirm', link), 400);
    await json(await t.client().post('/api/auth/change-email/confirm', second), 400);
  });

  it('needs the password, a free address that is not the current one, and a signed-in caller', async () => {
    const a = await customer();
    const b = await customer();
    const wrong = await json<ErrorJson>(
      await a.client.post('/api/auth/change-email', { newEmail: newEmail(), password: 'not-it-at-all' }),
      400,
    );
    expect(wrong.error.fields?.password).toBe('Invalid password');
    const same = await json<ErrorJson>(
      await a.client.post('/api/auth/change-email', { newEmail: a.email, password: PASSWORD }),
      400,
    );
    expect(same.error.fields?.newEmail).toBe(EMAIL_CHANGE_TEXTS.same);
    await json(await a.client.post('/api/auth/change-email', { newEmail: b.email, password: PASSWORD }), 409);
    const bad = await json<ErrorJson>(
      await a.client.post('/api/auth/change-email', { newEmail: 'not-an-email', password: PASSWORD }),
      400,
    );
    expect(bad.error.fields?.newEmail).toBe('Please enter a valid email address');
    await json(
      await t.client().post('/api/auth/change-email', { newEmail: newEmail(), password: PASSWORD }),
      401,
    );
  });
});
