import { shortOrderId } from '#common/format';
import { carrierTrackingUrl } from '#common/tracking';
import { resolveImageUrl } from '#common/images';
import { UUID_PATTERN, type AdminDeleted } from '#common/schemas/admin';
import {
  type AdminOrder,
  type AdminOrderPage,
  type AdminOrdersQuery,
  type AdminOrderUpdate,
  type AdminShippingInfo,
  type AdminOrderMail,
  type OrderMailKind,
  SHIPPED_MAIL_INTERVAL_MS,
} from '#common/schemas/admin-orders';
import { userTopic } from '#common/schemas/events';
import type { Refund } from '#common/schemas/refund';
import type { Config } from '#server/config';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { announceAudit, recordAudit, type AdminActor } from '../audit/audit.service';
import type { EventHub } from '../events/event-hub';
import { orderUpdateMail } from '../mail/mail-templates';
import { mailsOfOrders, queueMail, recentOrderMailKeys } from '../mail/mail.service';
import type { RefundView } from '../refunds/refunds.service';
import { orderMailFacts } from './guest-order.service';
import { refundFigures, refundsOfOrders } from './order-refunds';
import { createOrdersAdminRepository, type OrderItemRow, type OrderRow } from './orders-admin.repository';
import { pageWindow, toPage } from '#server/lib/pagination';

/**
 * The back office's orders: list (search, status filter, newest first, paginated), read, update
 * status and tracking number, delete. Each write is one transaction holding the order's row lock,
 * with its audit entry; the live events go out after commit to 'admin:orders' and to the owner's
 * 'orders:<userId>' topic.
 */
export interface OrdersAdminService {
  list(query: AdminOrdersQuery): Promise<AdminOrderPage>;
  get(id: string): Promise<AdminOrder>;
  update(id: string, changes: AdminOrderUpdate, actor: AdminActor): Promise<AdminOrder>;
  remove(id: string, actor: AdminActor): Promise<AdminDeleted>;
}

const NOT_FOUND = 'Order not found';
const SHIPPING_KEYS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'city',
  'state',
  'zipCode',
  'country',
] as const;

export function createOrdersAdminService(deps: {
  db: Db;
  config: Config;
  events: EventHub;
  logger: Logger;
  imagePublicBase: string;
  /** How refund DTOs name their coin and link their transaction (the refunds module's view). */
  refundView: () => Promise<RefundView>;
}): OrdersAdminService {
  const repo = createOrdersAdminRepository(deps.db);
  const links = { publicUrl: deps.config.publicUrl, secret: deps.config.authSecret };

  /** A shipping mail to the order's email when the admin changed its status or tracking number. */
  async function queueShopperUpdate(trx: Db, before: OrderRow, after: OrderRow): Promise<void> {
    const moved = before.status !== after.status || before.tracking_number !== after.tracking_number;
    if (!moved || after.status === 'failed') return;
    // Back to pending says nothing to the shopper; a tracking number added while pending does.
    if (after.status === 'pending' && before.tracking_number === after.tracking_number) return;
    const facts = await orderMailFacts(trx, links, after.id);
    if (!facts) return;
    const update = orderUpdateMail(facts, {
      status: after.status,
      trackingNumber: after.tracking_number,
      trackingUrl: after.tracking_number ? carrierTrackingUrl(after.tracking_number) : null,
    });
    // A 'has shipped' mail at most once an hour: a number saved again or corrected within it
    // sends nothing (the order page shows the number as it is now). A number added after a
    // 'has shipped' mail that had none is news, and is sent.
    if (update.order?.kind === 'shipped') {
      const recent = await recentOrderMailKeys(trx, after.id, 'shipped', SHIPPED_MAIL_INTERVAL_MS);
      // Its event key ends with the tracking number it told ('order-update:<id>:<status>:<number>').
      const toldNumber = recent.some((key) => !key.endsWith(':'));
      if (recent.length > 0 && (toldNumber || !after.tracking_number)) return;
    }
    await queueMail(trx, update);
  }

  const explorerUrl = (signature: string | null): string | null => {
    if (!signature) return null;
    const { rpcUrl, localLedger } = deps.config.solana;
    // The demo ledger's transactions are known only to this shop: its own explorer page, as the
    // customers' links (common/explorer.ts), not the public explorer pointed at /local-chain.
    if (localLedger) return `/explorer/tx/${encodeURIComponent(signature)}`;
    const tx = `https://explorer.solana.com/tx/${encodeURIComponent(signature)}`;
    if (rpcUrl && /devnet/i.test(rpcUrl)) return `${tx}?cluster=devnet`;
    if (rpcUrl && /testnet/i.test(rpcUrl)) return `${tx}?cluster=testnet`;
    return tx;
  };

  const toDto = (
    row: OrderRow,
    items: readonly OrderItemRow[],
    refunds: Refund[],
    mails: AdminOrderMail[],
  ): AdminOrder => {
    const info = row.shipping_info as Record<string, unknown>;
    const shippingInfo = {} as AdminShippingInfo;
    for (const key of SHIPPING_KEYS) shippingInfo[key] = typeof info[key] === 'string' ? info[key] : '';
    return {
      id: row.id,
      shortId: shortOrderId(row.id),
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
      status: row.status,
      trackingNumber: row.tracking_number,
      paymentMethod: row.payment_method,
      subtotalCents: row.subtotal_cents,
      shippingCents: row.shipping_cents,
      discountCents: row.discount_cents,
      amountCents: row.amount_cents,
      transactionSignature: row.transaction_signature,
      explorerUrl: explorerUrl(row.transaction_signature),
      refundRequired: row.refund_required,
      refundReason: row.refund_reason,
      demo: row.demo,
      ...refundFigures(row.amount_cents, refunds),
      userId: row.user_id,
      shippingInfo,
      items: items.map((i) => ({
        id: String(i.id),
        productId: i.product_id,
        title: i.title,
        image: i.image,
        imageUrl: resolveImageUrl(i.image, deps.imagePublicBase),
        category: i.category,
        size: i.size,
        color: i.color,
        quantity: i.quantity,
        priceCents: i.price_cents,
      })),
      mails,
    };
  };

  /** Inside a transaction pass `view`, read before it began (it may ask the chain for the mint's decimals). */
  const withItems = async (rows: OrderRow[], db: Db = deps.db, view?: RefundView): Promise<AdminOrder[]> => {
    const ids = rows.map((r) => r.id);
    const [items, refunds, mailRows] = await Promise.all([
      createOrdersAdminRepository(db).findItems(ids),
      refundsOfOrders(db, ids, async () => ({ ...(view ?? (await deps.refundView())), showErrors: true })),
      mailsOfOrders(db, ids),
    ]);
    const mails = new Map<string, AdminOrderMail[]>();
    for (const m of mailRows) {
      const list = mails.get(m.order_id!) ?? [];
      list.push({
        kind: m.kind as OrderMailKind,
        subject: m.subject,
        to: m.to_address,
        status: m.status,
        queuedAt: new Date(m.created_at).toISOString(),
        sentAt: m.sent_at ? new Date(m.sent_at).toISOString() : null,
      });
      mails.set(m.order_id!, list);
    }
    const byOrder = new Map<string, OrderItemRow[]>();
    for (const item of items) {
      const list = byOrder.get(item.order_id) ?? [];
      list.push(item);
      byOrder.set(item.order_id, list);
    }
    return rows.map((r) => toDto(r, byOrder.get(r.id) ?? [], refunds.get(r.id) ?? [], mails.get(r.id) ?? []));
  };

  /**
   * To the back office, the order's account, and the account whose confirmed email the order was
   * shipped to (a guest order shows in that account's list, so its changes should reach it live).
   */
  const announce = async (
    order: { id: string; userId: string | null; email: string },
    type: 'order.updated' | 'changed',
    data: object,
  ) => {
    await deps.events.publish('admin:orders', { type, data });
    const byEmail = await createOrdersAdminRepository(deps.db).findVerifiedUserIdByEmail(order.email);
    for (const userId of new Set([order.userId, byEmail])) {
      if (userId) await deps.events.publish(userTopic('orders', userId), { type, data });
    }
  };

  return {
    async list(query) {
      const filter = {
        search: query.search,
        status: query.status === 'all' ? undefined : query.status,
      };
      // Counting every match of a free-text search would cost more than the page: total is null then.
      const [page, total] = await Promise.all([
        repo.findPage({ ...filter, ...pageWindow(query) }),
        filter.search
          ? Promise.resolve(null)
          : filter.status
            ? repo.countByStatus(filter.status)
            : repo.countAll(),
      ]);
      return toPage(await withItems(page.rows), query, total, page.hasMore);
    },

    async get(id) {
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', NOT_FOUND);
      const row = await repo.findById(id);
      if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
      const [order] = await withItems([row]);
      return order!;
    },

    async update(id, changes, actor) {
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', NOT_FOUND);
      const view = await deps.refundView();
      const { order, entry } = await deps.db.transaction().execute(async (trx) => {
        const tx = createOrdersAdminRepository(trx);
        const before = await tx.lockById(id);
        if (!before) throw new AppError('NOT_FOUND', NOT_FOUND);
        const after = await tx.update(id, changes, new Date());
        const diff: Record<string, { from: string | null; to: string | null }> = {};
        if (changes.status !== undefined) diff.status = { from: before.status, to: after.status };
        if (changes.trackingNumber !== undefined) {
          diff.trackingNumber = { from: before.tracking_number, to: after.tracking_number };
        }
        await queueShopperUpdate(trx, before, after);
        const entry = await recordAudit(
          trx,
          {
            action: 'update_order',
            details: { orderId: id, shortId: shortOrderId(id), changes: diff, success: true },
            actor,
          },
          deps.logger,
        );
        const [order] = await withItems([after], trx, view);
        return { order: order!, entry };
      });
      await announce({ ...order, email: order.shippingInfo.email }, 'order.updated', {
        id,
        status: order.status,
      });
      await announceAudit(deps.events, entry);
      return order;
    },

    async remove(id, actor) {
      if (!UUID_PATTERN.test(id)) throw new AppError('NOT_FOUND', NOT_FOUND);
      const { before, entry } = await deps.db.transaction().execute(async (trx) => {
        const tx = createOrdersAdminRepository(trx);
        const before = await tx.lockById(id);
        if (!before) throw new AppError('NOT_FOUND', NOT_FOUND);
        await tx.delete(id);
        const entry = await recordAudit(
          trx,
          {
            action: 'delete_order',
            details: {
              orderId: id,
              shortId: shortOrderId(id),
              email: before.shipping_email,
              status: before.status,
              amountCents: before.amount_cents,
              success: true,
            },
            actor,
          },
          deps.logger,
        );
        return { before, entry };
      });
      await announce({ id, userId: before.user_id, email: before.shipping_email }, 'changed', {
        id,
        deleted: true,
      });
      await announceAudit(deps.events, entry);
      return { ok: true, id };
    },
  };
}
