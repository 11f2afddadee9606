import type { Refund } from '#common/schemas/refund';
import type { Db } from '#server/db/client';
import { findRefundsOfOrders, type RefundView } from '../refunds/refunds.service';

/**
 * What an order's refunds add up to, as every order view shows it. Only order-scope refunds that
 * have not failed come out of what the order charged (the same rule as the admin figures,
 * db/migrations/0023): a pending refund counts from when it is recorded, a failed one never; a
 * transfer-scope refund returns money that never paid the order.
 */
export function refundFigures(
  amountCents: number,
  refunds: Refund[],
): { refunds: Refund[]; refundedCents: number; refundableCents: number } {
  const refundedCents = refunds
    .filter((r) => r.scope === 'order' && r.status !== 'failed')
    .reduce((sum, r) => sum + r.amountCents, 0);
  return { refunds, refundedCents, refundableCents: Math.max(0, amountCents - refundedCents) };
}

/** The refunds of these orders (none: an empty map without asking for the view). */
export async function refundsOfOrders(
  db: Db,
  orderIds: readonly string[],
  view: () => Promise<RefundView>,
): Promise<Map<string, Refund[]>> {
  if (orderIds.length === 0) return new Map();
  return findRefundsOfOrders(db, orderIds, await view());
}
