import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { vi } from 'vitest';

/** One mail as it arrived over SMTP, parsed by mailparser. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
}

export interface FakeSmtpServer {
  /** smtp://127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** Connections opened to it so far. */
  connections(): number;
  /** While set, every recipient is refused with this reply (as a server that rejects mail does). */
  refuse(reply: string | null): void;
  /** The mails to `to`, waiting up to `timeoutMs` for at least one. */
  mailsTo(to: string, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package, the real protocol) on loopback, keeping what
 * arrives parsed by `mailparser`: subject, text and HTML as a mail client would read them.
 */
export async function startFakeSmtp(): Promise<FakeSmtpServer> {
  const received: ReceivedMail[] = [];
  let connections = 0;
  let refusal: string | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session: SMTPServerSession, callback: (err?: Error) => void) {
      connections++;
      callback();
    },
    onRcptTo(_address, _session, callback: (err?: Error) => void) {
      if (!refusal) return callback();
      const err = Object.assign(new Error(refusal), { responseCode: 550 });
      callback(err);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html || '',
            headers: parsed.headers,
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    refuse(reply) {
      refusal = reply;
    },
    mailsTo: (to, timeoutMs = 10_000) =>
      vi.waitFor(
        () => {
          const mine = received.filter((m) => m.to.includes(to));
          if (mine.length === 0) throw new Error(`no mail to ${to} arrived over SMTP`);
          return mine;
        },
        { timeout: timeoutMs, interval: 50 },
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
