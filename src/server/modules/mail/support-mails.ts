import type { OutgoingMail } from './mail.repository';
import { mailOf } from './mail-templates';

/**
 * Support mails: an admin's answer to a ticket. A customer is sent to their Messages
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
  return mailOf(`support-reply:${reply.replyId}`, reply.to, 'support-reply', {
    name: reply.name ?? '',
    subject: reply.subject,
    body: reply.body,
    account: reply.link.kind === 'account',
    order: reply.link.kind === 'order',
    contact: reply.link.kind === 'contact',
    url: reply.link.url,
  });
}
