import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '#server/config';
import type { Logger } from '#server/lib/logger';
import type { OutgoingMail } from './mail.repository';

/** Hands one mail to the world: SMTP when SMTP_URL is set, otherwise an .eml file in DATA_DIR/outbox. */
export interface MailTransport {
  send(mail: OutgoingMail & { id: string }): Promise<void>;
  /** How many mails to hand over at once (the SMTP pool's connections). */
  concurrency: number;
  /** Closes the SMTP connections (at shutdown). */
  close(): void;
}

/**
 * The SMTP pool: a few connections kept open and reused for many mails (SMTP_URL's query, e.g.
 * `?maxConnections=5`, overrides these), each closed after maxMessages mails or 4 idle minutes.
 * A connection that cannot be made or a server that does not answer fails the attempt in seconds,
 * and the mail is retried later (mail.service.ts).
 */
export const SMTP_POOL = {
  pool: true,
  maxConnections: 3,
  maxMessages: 100,
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
} as const;

/** The message nodemailer writes, the same for SMTP and for the outbox's files. */
function messageOf(from: string, mail: OutgoingMail) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    headers: { 'X-Shop-Event': mail.eventKey },
  };
}

export function createMailTransport(config: Config, logger: Logger): MailTransport {
  const log = logger.child({ module: 'mail' });
  const { smtpUrl, from, outboxDir } = config.mail;
  if (smtpUrl) {
    const smtp = nodemailer.createTransport({ ...SMTP_POOL, url: smtpUrl });
    return {
      concurrency: SMTP_POOL.maxConnections,
      async send(mail) {
        await smtp.sendMail(messageOf(from, mail));
      },
      close() {
        smtp.close();
      },
    };
  }
  // The embedded default: nodemailer writes the real RFC 5322 message, we keep it as a file a mail
  // client opens, and log its links so a developer can follow them from the console.
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    concurrency: 1,
    close() {},
    async send(mail) {
      const info = await files.sendMail(messageOf(from, mail));
      mkdirSync(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${mail.id}.eml`);
      writeFileSync(file, info.message as Buffer);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      log.info({ to: mail.to, subject: mail.subject, file, links }, 'mail written to the outbox');
    },
  };
}
