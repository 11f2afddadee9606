/**
 * With SMTP_URL set, mail leaves through SMTP: a local SMTP server (the `smtp-server` package,
 * speaking the real protocol) receives the sign-up's confirmation mail from the shop's mail
 * sender, and nothing is written to DATA_DIR/outbox.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { json } from './admin-test-kit';

interface Received {
  from: string;
  to: string[];
  data: string;
}

describe('mail through SMTP', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await startTestApp({
      backend: 'pglite',
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Aelo <shop@aelo.example>' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the confirmation mail to the SMTP server, once', async () => {
    const email = `smtp-${Date.now().toString(36)}@example.com`;
    await json(
      await t.client().post('/api/auth/sign-up/email', { email, password: 'quiet-harbour-64' }),
      200,
    );
    expect(await t.deps.mail.sendDue()).toBe(1);
    expect(await t.deps.mail.sendDue()).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('shop@aelo.example');
    expect(received[0]!.to).toEqual([email]);
    expect(received[0]!.data).toMatch(/^Subject: Confirm your email address\r?$/m);
    expect(received[0]!.data).toContain('/verify-email?token=');
    expect(existsSync(path.join(t.dataDir, 'outbox'))).toBe(false);
  });
});
