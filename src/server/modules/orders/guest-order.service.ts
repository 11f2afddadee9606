import { formatUsd, TOKEN_DISCOUNT_PERCENT } from '#common/money';
import { GUEST_ORDER_NOT_FOUND, type GuestOrder } from '#common/schemas/guest-order';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import { signLink, verifyLink } from '#server/lib/signed-links';
import type { OrderMailFacts } from '../mail/mail-templates';
import type { RefundView } from '../refunds/refunds.service';
import { guestOrderMessages } from '../messages/guest-order-messages';
import { createGuestOrderRepository } from './guest-order.repository';
import { refundsOfOrders } from './order-refunds';
import { buyerOrderView } from './order-view';

/**
 * Guest order links: every order mail carries a signed link (`/orders/<id>?token=`) to a page
 * with that one order's status, so a shopper who bought without an account can follow it. The
 * token is an HMAC of the order id and an expiry under the server's secret; a tampered, foreign
 * or expired link finds nothing (the same 404 as an unknown order).
 */

const PURPOSE = 'guest-order';
export const GUEST_LINK_DAYS = 180;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OrderLinks {
  publicUrl: string;
  secret: string;
}

export function guestOrderUrl(links: OrderLinks, orderId: string, now = new Date()): string {
  const expires = new Date(now.getTime() + GUEST_LINK_DAYS * 86_400_000);
  return `${links.publicUrl}/orders/${orderId}?token=${signLink(links.secret, PURPOSE, orderId, expires)}`;
}

/** What an order mail says, read in `db` (the confirming transaction's, for the confirmation). */
export async function orderMailFacts(
  db: Db,
  links: OrderLinks,
  orderId: string,
): Promise<OrderMailFacts | null> {
  const order = await createGuestOrderRepository(db).findWithItems(orderId);
  if (!order) return null;
  const info = order.shipping_info;
  return {
    id: order.id,
    to: order.shipping_email,
    name: info.firstName ?? '',
    // The mails name the total; an AELO order's says what its discount took off.
    totalText:
      order.discount_cents > 0
        ? `${formatUsd(order.amount_cents)} after the ${TOKEN_DISCOUNT_PERCENT}% AELO discount of ${formatUsd(order.discount_cents)}`
        : formatUsd(order.amount_cents),
    items: order.items.map((i) => ({ title: i.title, quantity: i.quantity, size: i.size, color: i.color })),
    statusUrl: guestOrderUrl(links, order.id),
    demo: order.demo,
  };
}

export function createGuestOrderService(deps: {
  db: Db;
  links: OrderLinks;
  imagePublicBase: string;
  /** How refund DTOs name their coin and link their transaction (the refunds module's view). */
  refundView: () => Promise<RefundView>;
}) {
  return {
    async get(id: string, token: string): Promise<GuestOrder> {
      if (!UUID.test(id) || !verifyLink(deps.links.secret, PURPOSE, id.toLowerCase(), token)) {
        throw new AppError('NOT_FOUND', GUEST_ORDER_NOT_FOUND);
      }
      const order = await createGuestOrderRepository(deps.db).findWithItems(id.toLowerCase());
      if (!order) throw new AppError('NOT_FOUND', GUEST_ORDER_NOT_FOUND);
      const refunds = (await refundsOfOrders(deps.db, [order.id], deps.refundView)).get(order.id) ?? [];
      return {
        ...buyerOrderView(order, refunds, deps.imagePublicBase),
        messages: await guestOrderMessages(deps.db, order.id),
      };
    },
  };
}

export type GuestOrderService = ReturnType<typeof createGuestOrderService>;
