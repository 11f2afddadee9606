import type { OutgoingMail } from './mail.repository';
import { mail } from './mail-templates';

/**
 * Support mails (issue 40): an admin's answer to a ticket. A customer is sent to their Messages
 * page to read and follow up; a guest gets the answer in the mail, with the order's page when their
 * message named their order, else the contact form to write back. One mail per reply.
 */
export function supportReplyMail(reply: {
  replyId: string;
  to: string;
  name: string | null;
  subject: string;
  body: string;
  link: { kind: 'account' | 'order' | 'contact'; url: string };
}): OutgoingMail {
  const greeting = reply.name ? `Hello ${reply.name},` : 'Hello,';
  const where =
    reply.link.kind === 'account'
      ? 'Read the whole conversation and reply under your ticket in your account.'
      : reply.link.kind === 'order'
        ? "The conversation is also on your order's page."
        : 'To write back, use the contact form.';
  return mail(
    `support-reply:${reply.replyId}`,
    reply.to,
    `Re: ${reply.subject}`,
    [`${greeting} we answered your message "${reply.subject}":`, reply.body, where],
    {
      label:
        reply.link.kind === 'account'
          ? 'Open your messages'
          : reply.link.kind === 'order'
            ? 'See your order'
            : 'Write back',
      url: reply.link.url,
    },
  );
}
