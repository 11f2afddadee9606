import { CARRIER_NAME, carrierTrackingUrl } from '#common/tracking';
import { ExternalLink } from 'lucide-react';
import { type AdminOrder } from '#common/schemas/admin-orders';
import { formatUsd } from '#common/money';
import { shortHash } from '#common/format';
import { OrderTotals } from '#web/components/order-totals';
import { DemoOrderBadge } from '#web/components/demo-order-badge';
import { OrderStatusBadge } from '#web/features/admin/shared/components/order-status';
import { formatDateTime, paymentMethodLabel } from '#web/features/admin/shared/format';

const EXPLORER_TX = 'https://explorer.solana.com/tx/';

/** An opened order's shipping address, payment facts and items with their totals. */
export function OrderDetails({ order }: { order: AdminOrder }) {
  const name = `${order.shippingInfo.firstName} ${order.shippingInfo.lastName}`.trim();
  const explorerUrl =
    order.explorerUrl ?? (order.transactionSignature ? `${EXPLORER_TX}${order.transactionSignature}` : null);

  return (
    <div className="grid grid-cols-1 gap-6 p-5 md:grid-cols-[1fr_1fr_1.3fr]">
      <section aria-label="Shipping information" className="min-w-0">
        <h3 className="text-xs font-semibold tracking-wide text-stone-500 uppercase">Shipping Information</h3>
        <address className="mt-2 space-y-0.5 text-sm [overflow-wrap:anywhere] text-stone-700 not-italic">
          <p className="font-medium text-stone-950">{name || '—'}</p>
          <p className="break-all">
            <a href={`mailto:${order.shippingInfo.email}`} className="text-rose-700 hover:underline">
              {order.shippingInfo.email}
            </a>
          </p>
          <p>{order.shippingInfo.phone}</p>
          <p>{order.shippingInfo.address}</p>
          <p>
            {order.shippingInfo.city}, {order.shippingInfo.state} {order.shippingInfo.zipCode}
          </p>
          <p>{order.shippingInfo.country}</p>
        </address>
      </section>

      <section aria-label="Order details" className="min-w-0">
        <h3 className="text-xs font-semibold tracking-wide text-stone-500 uppercase">Order Details</h3>
        <dl className="mt-2 space-y-2 text-sm">
          <div className="flex justify-between gap-3">
            <dt className="text-stone-500">Status</dt>
            <dd>
              <OrderStatusBadge status={order.status} />
            </dd>
          </div>
          <div className="flex justify-between gap-3">
            <dt className="text-stone-500">Tracking Number</dt>
            <dd className="min-w-0 text-right font-mono text-xs break-all text-stone-800">
              {order.trackingNumber ? (
                <a
                  href={carrierTrackingUrl(order.trackingNumber)}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="inline-flex items-center gap-1 text-rose-700 hover:underline"
                >
                  {order.trackingNumber}
                  <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                  <span className="sr-only">(track with {CARRIER_NAME}, opens in a new tab)</span>
                </a>
              ) : (
                'Not set'
              )}
            </dd>
          </div>
          <div className="flex justify-between gap-3">
            <dt className="text-stone-500">Payment Method</dt>
            <dd className="flex flex-wrap items-center justify-end gap-2 text-stone-800">
              {paymentMethodLabel(order.paymentMethod)}
              {order.demo ? <DemoOrderBadge /> : null}
            </dd>
          </div>
          {order.transactionSignature && explorerUrl ? (
            <div className="flex justify-between gap-3">
              <dt className="text-stone-500">Transaction</dt>
              <dd>
                <a
                  href={explorerUrl}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="inline-flex items-center gap-1 font-mono text-xs text-rose-700 hover:underline"
                >
                  {shortHash(order.transactionSignature)}
                  <ExternalLink className="size-3" aria-hidden="true" />
                  <span className="sr-only">(view the transaction, opens in a new tab)</span>
                </a>
              </dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-3">
            <dt className="text-stone-500">Last updated</dt>
            <dd className="text-stone-800">{formatDateTime(order.updatedAt)}</dd>
          </div>
        </dl>
      </section>

      <section aria-label="Items" className="min-w-0">
        <h3 className="text-xs font-semibold tracking-wide text-stone-500 uppercase">Items</h3>
        <ul className="mt-2 space-y-3">
          {order.items.map((item) => (
            <li key={item.id} className="flex gap-3">
              <img
                src={item.imageUrl}
                alt=""
                loading="lazy"
                className="size-12 shrink-0 rounded-lg bg-stone-100 object-cover ring-1 ring-stone-200/80"
              />
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-medium [overflow-wrap:anywhere] text-stone-900">{item.title}</p>
                <p className="text-xs text-stone-500">
                  {[item.size && `Size ${item.size}`, item.color].filter(Boolean).join(' · ') || '—'}
                </p>
              </div>
              <p className="shrink-0 text-right text-sm text-stone-700 tabular-nums">
                {item.quantity} × {formatUsd(item.priceCents)}
              </p>
            </li>
          ))}
        </ul>
        <OrderTotals
          className="mt-4 border-t border-stone-200/80 pt-3"
          size="sm"
          subtotalCents={order.subtotalCents}
          shippingCents={order.shippingCents}
          discountCents={order.discountCents}
          totalCents={order.amountCents}
          refundedCents={order.refundedCents}
        />
      </section>
    </div>
  );
}
