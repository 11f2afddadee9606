import { CheckCircle2, Clock, PackageCheck, RotateCcw, Truck } from 'lucide-react';
import { Link } from 'react-router';
import { shortHash, shortOrderId } from '#common/format';
import { explorerTxUrl } from '#common/explorer';
import type { GuestOrder } from '#common/schemas/guest-order';
import { carrierTrackingUrl, CARRIER_NAME } from '#common/tracking';
import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';
import { DemoOrderBadge } from '#web/components/demo-order-badge';
import { OrderItems } from '#web/components/order-items';
import { OrderRefunds } from '#web/components/order-refunds';
import { OrderTotals } from '#web/components/order-totals';
import { SupportThread } from '#web/components/support-thread';
import { Alert } from '#web/components/ui/alert';
import { Skeleton } from '#web/components/ui/skeleton';
import { paths } from '#web/config/paths';
import { errorMessage } from '#web/lib/api-client';
import { useTokenInfo } from '#web/lib/shop-info';
import { useDateFormatter } from '#web/lib/local-time';
import { useGuestOrder } from '../api/get-guest-order';

const STATUS: Record<GuestOrder['status'], { label: string; note: string; icon: typeof Clock }> = {
  pending: {
    label: 'Preparing',
    note: 'You will receive tracking information within 48 hours once your order ships.',
    icon: Clock,
  },
  shipped: { label: 'Shipped', note: 'Your order is on its way.', icon: Truck },
  completed: { label: 'Delivered', note: 'Your order has arrived. Enjoy it.', icon: PackageCheck },
  failed: {
    label: 'Refund on its way',
    note: 'We could not ship this order; your payment will be refunded within 5 business days.',
    icon: RotateCcw,
  },
};

/** One order as the signed link of its mail shows it: status, items, totals, tracking, payment. */
export function GuestOrderView({ id, token }: { id: string; token: string }) {
  const query = useGuestOrder(id, token);
  const formatDate = useDateFormatter();
  const token_ = useTokenInfo();
  if (query.isPending) {
    return (
      <div className="space-y-4" role="status">
        <span className="sr-only">Loading your order</span>
        <Skeleton className="h-9 w-56" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="space-y-5">
        <h1 className="text-2xl font-semibold tracking-tight text-stone-950">Order not found</h1>
        <Alert variant="error">{errorMessage(query.error, 'Failed to load the order')}</Alert>
        <Link
          to={paths.home.getHref()}
          className="inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Back to Home
        </Link>
      </div>
    );
  }
  const order = query.data;
  const status = STATUS[order.status];
  const Icon = status.icon;
  return (
    <article className="space-y-8">
      <header className="space-y-2">
        <p className="text-sm text-stone-500">Ordered {formatDate(order.createdAt, { dateStyle: 'long' })}</p>
        <h1 className="text-3xl font-semibold tracking-tight text-stone-950">
          Order #{shortOrderId(order.id)}
        </h1>
        {order.demo ? (
          <p className="flex flex-wrap items-center gap-2 text-sm text-stone-600">
            <DemoOrderBadge />
            {DEMO_LEDGER_TEXTS.orderMailLine}
          </p>
        ) : null}
      </header>

      <section className="flex gap-4 rounded-2xl bg-white p-5 ring-1 ring-stone-200/80" aria-label="Status">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-600">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 space-y-1">
          <p className="font-semibold text-stone-950">{status.label}</p>
          <p className="text-sm text-stone-600">{status.note}</p>
          {order.trackingNumber ? (
            <p className="text-sm">
              {CARRIER_NAME} tracking:{' '}
              <a
                href={carrierTrackingUrl(order.trackingNumber)}
                target="_blank"
                rel="noreferrer"
                className="font-medium break-all text-rose-700 underline-offset-4 hover:underline"
              >
                {order.trackingNumber}
              </a>
            </p>
          ) : null}
        </div>
      </section>

      <section aria-label="Items" className="rounded-2xl bg-white p-5 ring-1 ring-stone-200/80">
        <OrderItems items={order.items} />
        <OrderTotals
          className="mt-5 border-t border-stone-100 pt-4"
          subtotalCents={order.subtotalCents}
          shippingCents={order.shippingCents}
          discountCents={order.discountCents}
          totalCents={order.totalCents}
          refundedCents={order.refundedCents}
        />
        {order.transactionSignature && token_ ? (
          <p className="mt-4 text-sm text-stone-500">
            Paid on Solana:{' '}
            <a
              href={explorerTxUrl(order.transactionSignature, token_.cluster)}
              className="font-mono text-rose-700 underline-offset-4 hover:underline"
            >
              {shortHash(order.transactionSignature)}
            </a>
          </p>
        ) : null}
      </section>
      {order.refunds.length > 0 ? (
        <OrderRefunds
          refunds={order.refunds}
          headingLevel={2}
          className="rounded-2xl bg-stone-50 p-5 ring-1 ring-stone-200/80"
        />
      ) : null}
      {order.messages.length > 0 ? (
        <section aria-labelledby="order-messages" className="space-y-4">
          <h2 id="order-messages" className="text-lg font-semibold text-stone-950">
            Your messages about this order
          </h2>
          {order.messages.map((message) => (
            <div key={message.id} className="space-y-3 rounded-2xl bg-white p-5 ring-1 ring-stone-200/80">
              <SupportThread
                perspective="guest"
                label="Conversation"
                replies={[
                  {
                    id: message.id,
                    authorKind: 'guest',
                    body: message.content,
                    createdAt: message.createdAt,
                  },
                  ...message.replies,
                ]}
              />
              {message.replies.length === 0 ? (
                <p className="text-sm text-stone-500">We will answer by email and here.</p>
              ) : null}
            </div>
          ))}
          <p className="text-sm text-stone-500">
            To write back, use the{' '}
            <Link to={paths.contact.getHref()} className="font-medium text-rose-700 hover:underline">
              contact form
            </Link>{' '}
            with this order&apos;s number.
          </p>
        </section>
      ) : null}
      <p className="flex items-center gap-2 text-sm text-stone-500">
        <CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />
        This page is private to the link in your order email.
      </p>
    </article>
  );
}
