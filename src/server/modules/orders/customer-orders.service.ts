import type { CustomerOrdersQuery, CustomerOrdersResponse } from '#common/schemas/customer-orders';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { RefundView } from '../refunds/refunds.service';
import { createCustomerOrdersRepository } from './customer-orders.repository';
import { refundsOfOrders } from './order-refunds';
import { buyerOrderView } from './order-view';

/** The most orders one page shows (newest first). */
export const CUSTOMER_ORDERS_LIMIT = 100;

/**
 * A signed-in customer's orders: the ones placed while signed in, and those placed with the
 * account's email once that email is confirmed (anyone could sign up with a stranger's address).
 */
export function createCustomerOrdersService(deps: {
  db: Db;
  imagePublicBase: string;
  /** How refund DTOs name their coin and link their transaction (the refunds module's view). */
  refundView: () => Promise<RefundView>;
}) {
  const repo = createCustomerOrdersRepository(deps.db);
  return {
    /** Whether a tracking number (spaces dropped, upper case) is on one of the customer's own orders. */
    async ownsTrackingNumber(userId: string, trackingNumber: string): Promise<boolean> {
      const account = await repo.findAccount(userId);
      if (!account) return false;
      const email = account.email_verified ? account.email : null;
      return repo.hasTrackingNumber(userId, email, trackingNumber);
    },

    async list(
      userId: string,
      query: CustomerOrdersQuery,
      now = new Date(),
    ): Promise<CustomerOrdersResponse> {
      const account = await repo.findAccount(userId);
      if (!account) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
      const email = account.email_verified ? account.email : null;
      const rows = await repo.list(userId, email, query, now, CUSTOMER_ORDERS_LIMIT);
      const refunds = await refundsOfOrders(
        deps.db,
        rows.map((o) => o.id),
        deps.refundView,
      );
      return {
        emailVerified: account.email_verified,
        orders: rows.map((o) => {
          const info = o.shipping_info;
          return {
            ...buyerOrderView(o, refunds.get(o.id) ?? [], deps.imagePublicBase),
            shippingInfo: {
              name: [info.firstName, info.lastName].filter(Boolean).join(' '),
              address: info.address ?? '',
              city: info.city ?? '',
              state: info.state ?? '',
              zipCode: info.zipCode ?? '',
              country: info.country ?? '',
            },
          };
        }),
      };
    },
  };
}

export type CustomerOrdersService = ReturnType<typeof createCustomerOrdersService>;
