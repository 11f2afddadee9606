/**
 * Mail for real (issue 41): with SMTP_URL set, every kind of mail the shop sends leaves through a
 * real SMTP server (`smtp-server`, read back with `mailparser`) with its subject, text and HTML as
 * the templates in mail-templates/ make them, values a user typed escaped in the HTML. The pool
 * reuses its connections; a server that refuses leads to retries, then a dead letter ('failed')
 * that an admin sees in the Outbox with its error and sends again once the server accepts.
 * Nothing is written to DATA_DIR/outbox.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';
import { shortOrderId } from '#common/format';
import type { OutboxCounts, OutboxMailSummary, OutboxPage } from '#common/schemas/admin-outbox';
import { OUTBOX_MESSAGES } from '#common/schemas/admin-outbox';
import { signInCodeMail } from '#server/modules/auth/sign-in-code';
import * as mails from '#server/modules/mail/mail-templates';
import { MAX_ATTEMPTS, type OutgoingMail } from '#server/modules/mail/mail.service';
import { supportReplyMail } from '#server/modules/mail/support-mails';
import { startFakeSmtp, type FakeSmtpServer, type ReceivedMail } from '../fakes/smtp-server';
import { BACKENDS } from '../helpers/databases';
import { takeServerErrors } from '../helpers/server-errors';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json, signInClients, type AdminClients, type ErrorJson } from './admin-test-kit';

/** A name as a shopper might type it, and how the HTML must show it. */
const NAME = 'Ann <script>alert("x")</script> & Co';
const NAME_HTML = 'Ann &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; Co';
const ORDER_ID = '7c0b4a52-3f7e-4a4b-9d53-2f1f7b4f1c01';
const ORDER = `#${shortOrderId(ORDER_ID)}`;
const URL = 'https://shop.example/orders/7c0b?sig=a1&v=2';

let seq = 0;
const address = (kind: string) => `${kind}-${Date.now().toString(36)}-${++seq}@example.com`;

function facts(to: string, demo = false): mails.OrderMailFacts {
  return {
    id: ORDER_ID,
    to,
    name: NAME,
    totalText: '$64.99',
    items: [
      { title: 'Ribbed Legging', quantity: 2, size: 'M', color: 'Rose' },
      { title: 'Tote & Bottle', quantity: 1, size: null, color: null },
    ],
    statusUrl: URL,
    demo,
  };
}

interface Kind {
  kind: string;
  /** Makes the shop send it (through the app, or the builder the app uses); the recipient. */
  send(t: TestApp): Promise<string>;
  subject: string;
  text: string[];
  html: string[];
}

/** Queues a mail built by the code the app uses for this kind. */
async function queue(t: TestApp, mail: OutgoingMail): Promise<string> {
  expect(await t.deps.mail.enqueue(mail)).toBe(true);
  return mail.to;
}

const KINDS: Kind[] = [
  {
    kind: 'verify-email (sign-up)',
    async send(t) {
      const email = address('verify');
      await json(
        await t.client().post('/api/auth/sign-up/email', { email, password: 'quiet-harbour-64' }),
        200,
      );
      return email;
    },
    subject: 'Confirm your email address',
    text: ['An Aelo account was created with this address', '/verify-email?token=', 'Confirm email: '],
    html: ['>Confirm email</a>', '/verify-email?token='],
  },
  {
    kind: 'sign-up-attempt (sign-up with a confirmed address)',
    async send(t) {
      const email = address('again');
      const body = { email, password: 'quiet-harbour-64' };
      await json(await t.client().post('/api/auth/sign-up/email', body), 200);
      // A confirmed account (an unconfirmed one gets a fresh confirmation link instead).
      await t.deps.database.db
        .updateTable('users')
        .set({ email_verified: true })
        .where('email', '=', email)
        .execute();
      await json(await t.client().post('/api/auth/sign-up/email', body), 200);
      return email;
    },
    subject: 'Someone tried to create an account with your address',
    text: ['which already has one. Nothing was changed', '/forgot-password', 'Sign in: '],
    html: ['>Sign in</a>'],
  },
  {
    kind: 'password-reset (forgot password)',
    async send(t) {
      const email = address('reset');
      await json(
        await t.client().post('/api/auth/sign-up/email', { email, password: 'quiet-harbour-64' }),
        200,
      );
      await json(await t.client().post('/api/auth/forgot-password', { email }), 200);
      return email;
    },
    subject: 'Reset your password',
    text: ['Someone asked to reset the password of your Aelo account.', '/reset-password?token='],
    html: ['>Choose a new password</a>'],
  },
  {
    kind: 'sign-in-code',
    send: (t) => queue(t, signInCodeMail(address('code'), '418203', 'https://shop.example')),
    subject: 'Your Aelo sign-in code',
    text: ['Your sign-in code is 418203', 'It works once, for 10 minutes.'],
    html: ['Your sign-in code is 418203'],
  },
  {
    kind: 'email-change',
    send: (t) => queue(t, mails.emailChangeMail(address('change'), `${URL}&c=1`, `tok-${++seq}`)),
    subject: 'Confirm your new email address',
    text: ['You asked to use this address for your Aelo account.', 'Confirm new email: '],
    html: ['>Confirm new email</a>', 'sig=a1&#38;v=2&#38;c=1'],
  },
  {
    kind: 'email-changed',
    send: (t) =>
      queue(
        t,
        mails.emailChangedNotice(address('changed'), 'n<e>w@example.com', `tok-${++seq}`, 'https://s'),
      ),
    subject: 'Your email address was changed',
    text: ['Your Aelo account now uses n<e>w@example.com to sign in'],
    html: ['now uses n&#60;e&#62;w@example.com'],
  },
  {
    kind: 'order-confirmed',
    send: (t) => queue(t, mails.orderConfirmationMail(facts(address('confirmed')))),
    subject: `Order ${ORDER} confirmed`,
    text: [
      `Thank you, ${NAME}. We have your order ${ORDER} ($64.99).`,
      '2 × Ribbed Legging (M, Rose)\n\n1 × Tote & Bottle\n\nYou will receive tracking information',
    ],
    html: [`Thank you, ${NAME_HTML}.`, '1 × Tote &#38; Bottle'],
  },
  {
    kind: 'order-confirmed (demo)',
    send: (t) =>
      queue(t, mails.orderConfirmationMail({ ...facts(address('demo'), true), id: crypto.randomUUID() })),
    subject: 'confirmed',
    text: [DEMO_LEDGER_TEXTS.orderMailLine],
    html: [DEMO_LEDGER_TEXTS.orderMailLine],
  },
  {
    kind: 'order-refund (a payment that could not be kept)',
    send: (t) => queue(t, mails.orderRefundMail(facts(address('failed')), 'An item sold out.')),
    subject: `Order ${ORDER}: your payment will be refunded`,
    text: [`We received your payment of $64.99 for order ${ORDER}. An item sold out.`],
    html: ['We have started a full refund'],
  },
  {
    kind: 'payment-refund',
    send: (t) =>
      queue(
        t,
        mails.paymentRefundMail({
          refundId: crypto.randomUUID(),
          to: address('payment'),
          amountText: '0.5 SOL',
          reason: 'Paid after the checkout ENDED',
          wallet: 'Wa11et',
          statusUrl: URL,
        }),
      ),
    subject: 'We are refunding 0.5 SOL',
    text: ['could not be used for your order (paid after the checkout ended).', '(Wa11et)'],
    html: ['>See your payment</a>'],
  },
  {
    kind: 'order-shipped',
    send: (t) =>
      queue(
        t,
        mails.orderUpdateMail(facts(address('shipped')), {
          status: 'shipped',
          trackingNumber: '9400111899223817000042',
          trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223817000042',
        }),
      ),
    subject: `Order ${ORDER} has shipped`,
    text: [
      `Good news, ${NAME}: order ${ORDER} is on its way.`,
      'Tracking number: 9400111899223817000042 (https://',
    ],
    html: [`Good news, ${NAME_HTML}:`],
  },
  {
    kind: 'order-status',
    send: (t) =>
      queue(
        t,
        mails.orderUpdateMail(facts(address('status')), {
          status: 'delivered',
          trackingNumber: null,
          trackingUrl: null,
        }),
      ),
    subject: `Order ${ORDER} is delivered`,
    text: [`Order ${ORDER} is now delivered.\n\nFollow your order: ${URL}`],
    html: ['>Follow your order</a>'],
  },
  {
    kind: 'order-refunded',
    send: (t) =>
      queue(
        t,
        mails.orderRefundedMail(facts(address('refunded')), {
          refundId: crypto.randomUUID(),
          amountText: '$5.00',
          full: false,
          destination: 'the card that paid',
          reason: 'Seam <torn> & faded',
        }),
      ),
    subject: `Order ${ORDER}: $5.00 refunded`,
    text: [`Hello ${NAME}, we are refunding $5.00 of order ${ORDER} ($64.99)`, 'Reason: Seam <torn> & faded'],
    html: ['Reason: Seam &#60;torn&#62; &#38; faded'],
  },
  {
    kind: 'support-reply (to a guest)',
    send: (t) =>
      queue(
        t,
        supportReplyMail({
          replyId: crypto.randomUUID(),
          to: address('support'),
          name: NAME,
          subject: 'Where is my <order> & parcel?',
          body: 'It left today.\n<b>Soon</b> & safe.',
          link: { kind: 'contact', url: 'https://shop.example/contact' },
        }),
      ),
    subject: 'Re: Where is my <order> & parcel?',
    text: [
      `Hello ${NAME}, we answered your message "Where is my <order> & parcel?":\n\nIt left today.\n<b>Soon</b> & safe.`,
      'Write back: https://shop.example/contact',
    ],
    html: [NAME_HTML, 'It left today.\n&#60;b&#62;Soon&#60;/b&#62; &#38; safe.', '>Write back</a>'],
  },
];

describe.each(BACKENDS)('mail through SMTP on %s', (backend) => {
  let smtp: FakeSmtpServer;
  let t: TestApp;
  let clients: AdminClients;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await startTestApp({ backend, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Aelo <shop@aelo.example>' } });
    clients = await signInClients(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** The queued row of the newest mail to `to`: what the templates rendered. */
  const queued = (to: string) =>
    t.deps.database.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body', 'html_body'])
      .where('to_address', '=', to)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();

  for (const k of KINDS) {
    it(`sends ${k.kind}: subject, text and HTML as read from the SMTP server`, async () => {
      const to = await k.send(t);
      while ((await t.deps.mail.sendDue()) > 0);
      const row = await queued(to);
      const got = (await smtp.mailsTo(to)).find((m) => m.subject === row.subject) as ReceivedMail;
      expect(got.from).toBe('shop@aelo.example');
      expect(got.subject).toBe(row.subject);
      expect(got.subject).toContain(k.subject);
      expect(got.text.trimEnd()).toBe(row.text_body);
      expect(got.text.startsWith(`${got.subject}\n\n`)).toBe(true);
      expect(got.text.trimEnd().endsWith('— Aelo')).toBe(true);
      for (const part of k.text) expect(got.text).toContain(part);
      expect(got.html.trim()).toBe(row.html_body);
      expect(got.html).toMatch(/^<!doctype html>/);
      for (const part of k.html) expect(got.html).toContain(part);
      expect(got.html).not.toContain('<script');
      expect(got.html).not.toMatch(/<(b|torn|order|e)>/);
    });
  }

  it('keeps connections open in a pool: several mails, fewer connections', async () => {
    const before = smtp.connections();
    const sent = smtp.received.length;
    for (let i = 0; i < 8; i++)
      await queue(t, mails.passwordResetMail(address('pool'), `pool-${++seq}`, 'https://s'));
    while ((await t.deps.mail.sendDue()) > 0);
    expect(smtp.received.length - sent).toBe(8);
    expect(smtp.connections() - before).toBeLessThanOrEqual(3);
    expect(existsSync(path.join(t.dataDir, 'outbox'))).toBe(false);
  });

  it('retries a refused mail, then shows it failed to admins, who send it again', async () => {
    smtp.refuse('Mailbox unavailable');
    const to = await queue(t, mails.passwordResetMail(address('dead'), `dead-${++seq}`, 'https://s'));
    const mine = async (status = 'all') =>
      (
        await json<OutboxPage>(
          await clients.admin.get(`/api/admin/outbox?status=${status}&pageSize=100`),
          200,
        )
      ).items.find((m) => m.to === to);
    expect(await t.deps.mail.sendDue()).toBe(0);
    expect(await mine()).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: expect.stringContaining('Mailbox unavailable'),
    });
    // The later attempts, each when its wait is over (30 s, 1 min, ... up to an hour).
    for (let i = 2; i <= MAX_ATTEMPTS; i++) {
      expect(await t.deps.mail.sendDue(new Date(Date.now() + i * 2 * 3_600_000))).toBe(0);
    }
    // Giving up is logged as an error (an operator's alert), once.
    expect(takeServerErrors(/mail not sent: gave up/)).toHaveLength(1);
    const dead = (await mine('failed')) as OutboxMailSummary;
    expect(dead).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(dead.lastError).toMatch(/550.*Mailbox unavailable/);
    expect(await t.deps.mail.sendDue(new Date(Date.now() + 30 * 3_600_000))).toBe(0);
    expect((await json<OutboxCounts>(await clients.admin.get('/api/admin/outbox-counts'), 200)).failed).toBe(
      1,
    );
    expect(smtp.received.some((m) => m.to.includes(to))).toBe(false);

    // Only an admin; only a failed mail; a mail id.
    await json(await clients.customer.post(`/api/admin/outbox/${dead.id}/resend`), 403);
    await json(await clients.anonymous.post(`/api/admin/outbox/${dead.id}/resend`), 401);
    const sentOne =
      (await mine('sent'))?.id ??
      (await json<OutboxPage>(await clients.admin.get('/api/admin/outbox?status=sent'), 200)).items[0]!.id;
    const conflict = await json<ErrorJson>(
      await clients.admin.post(`/api/admin/outbox/${sentOne}/resend`),
      409,
    );
    expect(conflict.error.message).toBe(OUTBOX_MESSAGES.notFailed);
    await json(await clients.admin.post(`/api/admin/outbox/${crypto.randomUUID()}/resend`), 404);
    expect(
      (await json<ErrorJson>(await clients.admin.post('/api/admin/outbox/nope/resend'), 400)).error.code,
    ).toBe('VALIDATION_FAILED');
    await json(await clients.admin.get('/api/admin/outbox?status=lost'), 400);

    smtp.refuse(null);
    const again = await json<OutboxMailSummary>(
      await clients.admin.post(`/api/admin/outbox/${dead.id}/resend`),
      200,
    );
    expect(again).toMatchObject({ id: dead.id, status: 'pending', attempts: 0 });
    expect(await t.deps.mail.sendDue()).toBe(1);
    expect((await smtp.mailsTo(to))[0]!.subject).toBe('Reset your password');
    expect(await mine('sent')).toMatchObject({ status: 'sent', lastError: null });
    expect((await json<OutboxCounts>(await clients.admin.get('/api/admin/outbox-counts'), 200)).failed).toBe(
      0,
    );
    const audit = await t.deps.database.db
      .selectFrom('admin_audit_log')
      .select(['details'])
      .where('action', '=', 'resend_mail')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ mailId: dead.id, to, attempts: MAX_ATTEMPTS, success: true });
  });
});
