import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';
import { shortOrderId } from '#common/format';
import type { OrderMailKind } from '#common/schemas/admin-orders';
import type { OutgoingMail } from './mail.repository';

/**
 * The shop's mails, as plain text (every client reads it) with a simple HTML twin. Links are
 * absolute, to PUBLIC_URL; nothing a user typed is put in HTML without escaping.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function html(title: string, paragraphs: string[], action: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  return `<!doctype html><html><body style="margin:0;background:#fafaf9;font-family:Helvetica,Arial,sans-serif;color:#1c1917">
<div style="max-width:520px;margin:0 auto;padding:40px 24px">
<p style="font-size:20px;font-weight:700;margin:0 0 24px">Aelo</p>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}
<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#e11d48;color:#fff;text-decoration:none;padding:12px 22px;border-radius:999px;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#78716c;margin:0">Or open this link: ${escapeHtml(action.url)}</p>
</div></body></html>`;
}

export function mail(
  eventKey: string,
  to: string,
  subject: string,
  paragraphs: string[],
  action: { label: string; url: string },
): OutgoingMail {
  const text = `${subject}\n\n${paragraphs.join('\n\n')}\n\n${action.label}: ${action.url}\n\n— Aelo`;
  return { eventKey, to, subject, text, html: html(subject, paragraphs, action) };
}

/** Marks a mail as one of an order's (kept beside the order, listed in the admin's order card). */
function withOrder(orderId: string, kind: OrderMailKind, outgoing: OutgoingMail): OutgoingMail {
  return { ...outgoing, order: { id: orderId, kind } };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** e.g. '14 May 2026 at 09:05 UTC': the same for every reader, whatever their time zone. */
export function utcDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} at ${pad(
    date.getUTCHours(),
  )}:${pad(date.getUTCMinutes())} UTC`;
}

/**
 * The confirmation link of an account's address. It names the account (its address) and when it
 * was created, and says what opening it does: the person confirming sets a new password (or gives
 * the account's current one), every session of the account ends, and only then do orders placed
 * with the address show in it. Someone who made an account with another person's address loses it.
 */
export function verificationMail(
  to: string,
  token: string,
  publicUrl: string,
  accountCreatedAt: Date,
): OutgoingMail {
  return mail(
    `verify-email:${token}`,
    to,
    'Confirm your email address',
    [
      `An Aelo account was created with this address, ${to}, on ${utcDateTime(accountCreatedAt)}. Confirm that the address is yours to see the orders placed with it in your account.`,
      'When you open the link you choose a new password for the account (or, if you created it, enter its password). Confirming signs the account out on every device and signs you in.',
      'If you did not create this account, open the link and set a new password: this ends every session of it, so whoever created it is signed out and cannot sign in again. The link works for 24 hours.',
    ],
    { label: 'Confirm email', url: `${publicUrl}/verify-email?token=${encodeURIComponent(token)}` },
  );
}

/**
 * To the owner of an address someone tried to sign up with (sign-up answers the same either way,
 * so the visitor learns nothing): at most one per account and hour (`hourKey`).
 */
export function signUpAttemptMail(to: string, publicUrl: string, hourKey: string): OutgoingMail {
  return mail(
    `sign-up-existing:${to}:${hourKey}`,
    to,
    'Someone tried to create an account with your address',
    [
      `Someone tried to create a new Aelo account with ${to}, which already has one. Nothing was changed: your account, its password and its orders stay as they are.`,
      `If it was you, sign in with your password, or reset your password if you forgot it: ${publicUrl}/forgot-password`,
      'If it was not you, you can ignore this mail.',
    ],
    { label: 'Sign in', url: `${publicUrl}/login` },
  );
}

export function passwordResetMail(to: string, token: string, publicUrl: string): OutgoingMail {
  return mail(
    `reset-password:${token}`,
    to,
    'Reset your password',
    [
      'Someone asked to reset the password of your Aelo account. Choose a new one with the link below.',
      'The link works once, for one hour, and signs you out on every device. If it was not you, ignore this mail: your password stays as it is.',
    ],
    { label: 'Choose a new password', url: `${publicUrl}/reset-password?token=${encodeURIComponent(token)}` },
  );
}

export function emailChangeMail(to: string, url: string, token: string): OutgoingMail {
  return mail(
    `change-email:${token}`,
    to,
    'Confirm your new email address',
    [
      'You asked to use this address for your Aelo account. Confirm it with the link below; until then your account keeps its current address.',
      'The link works for 24 hours. If it was not you, ignore this mail.',
    ],
    { label: 'Confirm new email', url },
  );
}

export function emailChangedNotice(
  to: string,
  newEmail: string,
  token: string,
  publicUrl: string,
): OutgoingMail {
  return mail(
    `email-changed:${token}`,
    to,
    'Your email address was changed',
    [
      `Your Aelo account now uses ${newEmail} to sign in and for its mail.`,
      'If you did not do this, reply to this mail at once so we can secure your account.',
    ],
    { label: 'Open your settings', url: `${publicUrl}/profile/settings` },
  );
}

/** What an order mail says about its order. */
export interface OrderMailFacts {
  id: string;
  to: string;
  name: string;
  totalText: string;
  items: Array<{ title: string; quantity: number; size: string | null; color: string | null }>;
  /** The signed link to the order's status page (works without an account). */
  statusUrl: string;
  /** Paid with test money (the local demo ledger, Stripe's test mode): the mail says so. */
  demo: boolean;
}

function itemLines(items: OrderMailFacts['items']): string[] {
  return items.map((i) => {
    const options = [i.size, i.color].filter(Boolean).join(', ');
    return `${i.quantity} × ${i.title}${options ? ` (${options})` : ''}`;
  });
}

export function orderConfirmationMail(order: OrderMailFacts): OutgoingMail {
  const number = shortOrderId(order.id);
  return withOrder(
    order.id,
    'confirmed',
    mail(
      `order-confirmed:${order.id}`,
      order.to,
      `Order #${number} confirmed`,
      [
        `Thank you${order.name ? `, ${order.name}` : ''}. We have your order #${number} (${order.totalText}).`,
        // Paid with test money: said first, and no shipping promised.
        ...(order.demo ? [DEMO_LEDGER_TEXTS.orderMailLine] : []),
        ...itemLines(order.items),
        ...(order.demo
          ? []
          : ['You will receive tracking information within 48 hours once your order ships.']),
      ],
      { label: 'Follow your order', url: order.statusUrl },
    ),
  );
}

/** A failed order: why (in the shopper's words) and that its payment is being refunded. */
export function orderRefundMail(order: OrderMailFacts, reason: string): OutgoingMail {
  const number = shortOrderId(order.id);
  return withOrder(
    order.id,
    'payment-refund',
    mail(
      `order-refund:${order.id}`,
      order.to,
      `Order #${number}: your payment will be refunded`,
      [
        `We received your payment of ${order.totalText} for order #${number}. ${reason}`,
        'We have started a full refund to the card or wallet that paid; it arrives within 5 business days. We are sorry for the trouble.',
      ],
      { label: 'See your order', url: order.statusUrl },
    ),
  );
}

/**
 * Money that reached a checkout but paid no order (sent after the order was paid, after the
 * checkout ended, or beyond the amount due): it is on its way back to the wallet that sent it.
 */
export function paymentRefundMail(refund: {
  refundId: string;
  to: string;
  amountText: string;
  reason: string;
  wallet: string;
  statusUrl: string;
}): OutgoingMail {
  return mail(
    `payment-refund:${refund.refundId}`,
    refund.to,
    `We are refunding ${refund.amountText}`,
    [
      `We received ${refund.amountText} that could not be used for your order (${refund.reason.toLowerCase()}).`,
      `We are sending it back to the wallet that paid it (${refund.wallet}). You do not need to do anything.`,
    ],
    { label: 'See your payment', url: refund.statusUrl },
  );
}

export function orderUpdateMail(
  order: OrderMailFacts,
  update: { status: string; trackingNumber: string | null; trackingUrl: string | null },
): OutgoingMail {
  const number = shortOrderId(order.id);
  const shipped =
    update.status === 'shipped' || (update.status === 'pending' && update.trackingNumber !== null);
  const paragraphs = [
    shipped
      ? `Good news${order.name ? `, ${order.name}` : ''}: order #${number} is on its way.`
      : `Order #${number} is now ${update.status}.`,
    ...(update.trackingNumber
      ? [`Tracking number: ${update.trackingNumber}${update.trackingUrl ? ` (${update.trackingUrl})` : ''}`]
      : []),
  ];
  return withOrder(
    order.id,
    shipped ? 'shipped' : 'status',
    mail(
      `order-update:${order.id}:${update.status}:${update.trackingNumber ?? ''}`,
      order.to,
      shipped ? `Order #${number} has shipped` : `Order #${number} is ${update.status}`,
      paragraphs,
      { label: 'Follow your order', url: order.statusUrl },
    ),
  );
}

/** An admin's refund of (part of) an order: how much, where it goes, why. */
export function orderRefundedMail(
  order: OrderMailFacts,
  refund: { refundId: string; amountText: string; full: boolean; destination: string; reason: string },
): OutgoingMail {
  const number = shortOrderId(order.id);
  return withOrder(
    order.id,
    'refunded',
    mail(
      `order-refunded:${refund.refundId}`,
      order.to,
      `Order #${number}: ${refund.full ? 'refunded' : `${refund.amountText} refunded`}`,
      [
        `Hello${order.name ? ` ${order.name}` : ''}, we are refunding ${refund.amountText} of order #${number} (${order.totalText}) to ${refund.destination}.`,
        `Reason: ${refund.reason}`,
        'A card refund shows on your statement within 5 to 10 business days; a wallet refund arrives within minutes.',
      ],
      { label: 'See your order', url: order.statusUrl },
    ),
  );
}
