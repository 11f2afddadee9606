import { CheckCircle2, Clock, RotateCcw, Truck } from 'lucide-react';
import { shortHash, shortOrderId } from '#common/format';
import { DemoOrderBadge } from '#web/components/demo-order-badge';
import { OrderItems } from '#web/components/order-items';
import { OrderRefunds } from '#web/components/order-refunds';
import { OrderTotals } from '#web/components/order-totals';
import { formatUsd } from '#common/money';
import type { CustomerOrder } from '#common/schemas/customer-orders';
import { explorerTxUrl } from '#common/explorer';
import type { Cluster } from '#common/schemas/chain';
import { carrierTrackingUrl, CARRIER_NAME } from '#common/tracking';
import { useDateFormatter } from '#web/lib/local-time';
import { useTrackingInfo } from '../api/get-tracking-info';

/** The carrier's latest word on the parcel, once it has one: 'In Transit · Chicago, IL · Nov 3, 2:10 PM'. */
function TrackingStatus({ trackingNumber }: { trackingNumber: string }) {
  const info = useTrackingInfo(trackingNumber).data;
  const formatDate = useDateFormatter();
  if (!info?.available || !info.status) return null;
  const when = info.timestamp
    ? formatDate(info.timestamp, { dateStyle: 'medium', timeStyle: 'short' })
    : null;
  return (
    <p className="mt-1.5 text-xs text-stone-600" data-tracking-status="">
      <span className="sr-only">Tracking status: </span>
      <span className="font-semibold text-stone-800">{info.status}</span>
      {[info.location, when].filter(Boolean).map((part) => (
        <span key={part}> · {part}</span>
      ))}
    </p>
  );
}

const STATUS: Record<CustomerOrder['status'], { label: string; icon: typeof Clock; tone: string }> = {
  pending: { label: 'Pending', icon: Clock, tone: 'bg-amber-50 text-amber-700' },
  shipped: { label: 'Shipped', icon: Truck, tone: 'bg-sky-50 text-sky-700' },
  completed: { label: 'Completed', icon: CheckCircle2, tone: 'bg-emerald-50 text-emerald-700' },
  failed: { label: 'Refund due', icon: RotateCcw, tone: 'bg-stone-100 text-stone-700' },
};

/** One order: number, status with its icon, items, ship-to, tracking link, explorer link. */
export function OrderCard({ order, cluster }: { order: CustomerOrder; cluster: Cluster | undefined }) {
  const status = STATUS[order.status];
  const Icon = status.icon;
  const formatDate = useDateFormatter();
  const ship = order.shippingInfo;
  return (
    <article
      aria-label={`Order ${shortOrderId(order.id)}`}
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6"
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="font-semibold text-stone-950">Order #{shortOrderId(order.id)}</h2>
          <p className="text-sm text-stone-500">
            {formatDate(order.createdAt, { dateStyle: 'medium' })} · {formatUsd(order.totalCents)}
          </p>
        </div>
        <span className="flex flex-wrap items-center gap-2">
          {order.demo ? <DemoOrderBadge /> : null}
          <span
            className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ${status.tone}`}
          >
            <Icon className="size-3.5" aria-hidden="true" />
            {status.label}
          </span>
        </span>
      </header>
      <div className="mt-4">
        <OrderItems items={order.items} size="sm" />
      </div>
      <OrderTotals
        className="mt-4 border-t border-stone-100 pt-4 sm:ml-auto sm:max-w-xs"
        size="sm"
        subtotalCents={order.subtotalCents}
        shippingCents={order.shippingCents}
        discountCents={order.discountCents}
        totalCents={order.totalCents}
        refundedCents={order.refundedCents}
      />
      {order.refunds.length > 0 ? (
        <OrderRefunds refunds={order.refunds} className="mt-4 border-t border-stone-100 pt-4" />
      ) : null}
      <dl className="mt-4 grid gap-4 border-t border-stone-100 pt-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">Ship to</dt>
          <dd className="mt-1 text-stone-800">
            {ship.name}
            <br />
            {ship.address}, {ship.city}, {ship.state} {ship.zipCode}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">Tracking</dt>
          <dd className="mt-1 text-stone-800">
            {order.trackingNumber ? (
              <>
                <a
                  href={carrierTrackingUrl(order.trackingNumber)}
                  target="_blank"
                  rel="noreferrer"
                  className="font-medium break-all text-rose-700 underline-offset-4 hover:underline"
                >
                  {order.trackingNumber} <span className="sr-only">(track with {CARRIER_NAME})</span>
                </a>
                <TrackingStatus trackingNumber={order.trackingNumber} />
              </>
            ) : (
              <span className="text-stone-500">
                {order.status === 'failed'
                  ? 'Not shipping: refund due'
                  : 'Tracking information within 48 hours of shipping'}
              </span>
            )}
          </dd>
          {order.transactionSignature && cluster ? (
            <dd className="mt-2">
              <a
                href={explorerTxUrl(order.transactionSignature, cluster)}
                className="font-mono text-xs text-rose-700 underline-offset-4 hover:underline"
              >
                {shortHash(order.transactionSignature)}
                <span className="sr-only"> (view the payment on the explorer)</span>
              </a>
            </dd>
          ) : null}
        </div>
      </dl>
    </article>
  );
}
