import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';
import { shortOrderId } from '#common/format';
import type { OrderMailKind } from '#common/schemas/admin-orders';
import type { OutgoingMail } from './mail.repository';
import { renderMail, type MailKind, type MailView } from './template-files';

/**
 * The shop's mails: each builder names its event, its recipient and the values its templates show;
 * the words are in plain files an owner edits (template-files.ts: MAIL_TEMPLATES_DIR), plain text
 * (every client reads it) with an HTML twin in a shared layout. Links are absolute, to PUBLIC_URL;
 * every value is escaped in HTML.
 */

export function mailOf(eventKey: string, to: string, kind: MailKind, view: MailView): OutgoingMail {
  return { eventKey, to, ...renderMail(kind, view) };
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
  return mailOf(`verify-email:${token}`, to, 'verify-email', {
    to,
    createdAt: utcDateTime(accountCreatedAt),
    url: `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`,
  });
}

/**
 * To the owner of an address someone tried to sign up with (sign-up answers the same either way,
 * so the visitor learns nothing): at most one per account and hour (`hourKey`).
 */
export function signUpAttemptMail(to: string, publicUrl: string, hourKey: string): OutgoingMail {
  return mailOf(`sign-up-existing:${to}:${hourKey}`, to, 'sign-up-attempt', {
    to,
    forgotPasswordUrl: `${publicUrl}/forgot-password`,
    url: `${publicUrl}/login`,
  });
}

export function passwordResetMail(to: string, token: string, publicUrl: string): OutgoingMail {
  return mailOf(`reset-password:${token}`, to, 'password-reset', {
    url: `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`,
  });
}

export function emailChangeMail(to: string, url: string, token: string): OutgoingMail {
  return mailOf(`change-email:${token}`, to, 'email-change', { url });
}

export function emailChangedNotice(
  to: string,
  newEmail: string,
  token: string,
  publicUrl: string,
): OutgoingMail {
  return mailOf(`email-changed:${token}`, to, 'email-changed', {
    newEmail,
    url: `${publicUrl}/profile/settings`,
  });
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

export function orderConfirmationMail(order: OrderMailFacts): OutgoingMail {
  return withOrder(
    order.id,
    'confirmed',
    mailOf(`order-confirmed:${order.id}`, order.to, 'order-confirmed', {
      number: shortOrderId(order.id),
      name: order.name,
      totalText: order.totalText,
      // Paid with test money: said first, and no shipping promised.
      demo: order.demo,
      demoLine: DEMO_LEDGER_TEXTS.orderMailLine,
      items: order.items.map((i) => ({
        quantity: i.quantity,
        title: i.title,
        options: [i.size, i.color].filter(Boolean).join(', '),
      })),
      url: order.statusUrl,
    }),
  );
}

/** A failed order: why (in the shopper's words) and that its payment is being refunded. */
export function orderRefundMail(order: OrderMailFacts, reason: string): OutgoingMail {
  return withOrder(
    order.id,
    'payment-refund',
    mailOf(`order-refund:${order.id}`, order.to, 'order-refund', {
      number: shortOrderId(order.id),
      totalText: order.totalText,
      reason,
      url: order.statusUrl,
    }),
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
  return mailOf(`payment-refund:${refund.refundId}`, refund.to, 'payment-refund', {
    amountText: refund.amountText,
    reason: refund.reason.toLowerCase(),
    wallet: refund.wallet,
    url: refund.statusUrl,
  });
}

export function orderUpdateMail(
  order: OrderMailFacts,
  update: { status: string; trackingNumber: string | null; trackingUrl: string | null },
): OutgoingMail {
  const shipped =
    update.status === 'shipped' || (update.status === 'pending' && update.trackingNumber !== null);
  return withOrder(
    order.id,
    shipped ? 'shipped' : 'status',
    mailOf(
      `order-update:${order.id}:${update.status}:${update.trackingNumber ?? ''}`,
      order.to,
      shipped ? 'order-shipped' : 'order-status',
      {
        number: shortOrderId(order.id),
        name: order.name,
        status: update.status,
        trackingNumber: update.trackingNumber ?? '',
        trackingUrl: update.trackingUrl ?? '',
        url: order.statusUrl,
      },
    ),
  );
}

/** An admin's refund of (part of) an order: how much, where it goes, why. */
export function orderRefundedMail(
  order: OrderMailFacts,
  refund: { refundId: string; amountText: string; full: boolean; destination: string; reason: string },
): OutgoingMail {
  return withOrder(
    order.id,
    'refunded',
    mailOf(`order-refunded:${refund.refundId}`, order.to, 'order-refunded', {
      number: shortOrderId(order.id),
      name: order.name,
      totalText: order.totalText,
      amountText: refund.amountText,
      full: refund.full,
      destination: refund.destination,
      reason: refund.reason,
      url: order.statusUrl,
    }),
  );
}
