import { CARRIER_NAME, carrierTrackingUrl } from '#common/tracking';
import { cn } from '#web/lib/cn';
import { ChevronDown, ExternalLink, Pencil, RotateCcw, Trash2, TriangleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import {
  AdminOrderUpdateSchema,
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  TRACKING_NUMBER_MAX_LENGTH,
  type AdminOrder,
  type OrderStatus,
} from '#common/schemas/admin-orders';
import { formatUsd } from '#common/money';
import { OrderRefunds } from '#web/components/order-refunds';
import { OrderTotals } from '#web/components/order-totals';
import { DemoOrderBadge } from '#web/components/demo-order-badge';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { OrderStatusBadge, OrderStatusIcon } from '#web/features/admin/shared/components/order-status';
import { formatDateTime, paymentMethodLabel } from '#web/features/admin/shared/format';
import { shortHash } from '#common/format';
import { useDeleteOrder } from '../api/delete-order';
import { useUpdateOrder } from '../api/update-order';
import { OrderMails } from './order-mails';
import { RefundDialog } from './refund-dialog';
import { RefundSignatures } from './refund-signature';

const EXPLORER_TX = 'https://explorer.solana.com/tx/';

export interface OrderCardProps {
  order: AdminOrder;
  /** A green confirmation for the list ('Order updated successfully', ...). */
  onDone: (message: string) => void;
}

type Mode = 'view' | 'edit' | 'delete';

/** One order: a summary row that expands into shipping, payment, items, and edit / delete. */
export function OrderCard({ order, onDone }: OrderCardProps) {
  const [isOpen, setOpen] = useState(false);
  const [mode, setMode] = useState<Mode>('view');
  const [status, setStatus] = useState<OrderStatus>(order.status);
  const [tracking, setTracking] = useState(order.trackingNumber ?? '');
  const [trackingError, setTrackingError] = useState<string | undefined>();
  const [isRefunding, setRefunding] = useState(false);
  const canRefund = order.refundableCents > 0;
  const isFullyRefunded = order.amountCents > 0 && order.refundedCents >= order.amountCents;
  const needsRefund = order.refundRequired && canRefund && order.refundedCents === 0;
  const update = useUpdateOrder();
  const remove = useDeleteOrder({ onDeleted: () => onDone(ADMIN_MESSAGES.orderDeleted) });
  const bodyId = useId();
  const name = `${order.shippingInfo.firstName} ${order.shippingInfo.lastName}`.trim();
  const explorerUrl =
    order.explorerUrl ?? (order.transactionSignature ? `${EXPLORER_TX}${order.transactionSignature}` : null);

  const startEdit = () => {
    setStatus(order.status);
    setTracking(order.trackingNumber ?? '');
    setTrackingError(undefined);
    update.reset();
    setMode('edit');
    setOpen(true);
  };

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A number left as it was is not sent (one saved before the carrier's formats were checked
    // must not stop a status change); a new one gets the server's own check on the field first.
    const trackingNumber = tracking.trim() === (order.trackingNumber ?? '') ? '' : tracking;
    const parsed = AdminOrderUpdateSchema.safeParse({ status, trackingNumber });
    const issue = parsed.error?.issues.find((i) => i.path[0] === 'trackingNumber');
    setTrackingError(issue?.message);
    if (issue) return;
    update.mutate(
      { id: order.id, status, trackingNumber },
      {
        onSuccess: () => {
          setMode('view');
          onDone(ADMIN_MESSAGES.orderUpdated);
        },
        onError: (error) => {
          if (isApiError(error) && error.fields.trackingNumber) setTrackingError(error.fields.trackingNumber);
        },
      },
    );
  };

  const onDelete = () => {
    remove.mutate(order.id);
  };

  return (
    <article
      aria-label={`Order ${order.shortId}`}
      className={cn(
        'overflow-hidden rounded-2xl bg-white shadow-sm ring-1 shadow-stone-900/[0.03] transition-shadow',
        needsRefund ? 'ring-red-200' : 'ring-stone-200/80',
        isOpen && 'shadow-md',
      )}
    >
      <div className="flex items-center gap-3 p-4 sm:gap-4 sm:px-5">
        <span className="hidden sm:block">
          <OrderStatusIcon status={order.status} />
        </span>
        <button
          type="button"
          onClick={() => setOpen((v) => !v)}
          aria-expanded={isOpen}
          aria-controls={bodyId}
          className="flex min-w-0 flex-1 items-center gap-3 rounded-lg text-left"
        >
          <span className="min-w-0 flex-1">
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="text-sm font-semibold tracking-tight text-stone-950 tabular-nums">
                #{order.shortId}
              </span>
              <OrderStatusBadge status={order.status} />
              {order.demo ? <DemoOrderBadge /> : null}
              {needsRefund ? (
                <Badge tone="red">
                  <TriangleAlert className="size-3" aria-hidden="true" />
                  Refund required
                </Badge>
              ) : isFullyRefunded ? (
                <Badge tone="rose">
                  <RotateCcw className="size-3" aria-hidden="true" />
                  Refunded
                </Badge>
              ) : order.refundedCents > 0 ? (
                <Badge tone="rose">
                  <RotateCcw className="size-3" aria-hidden="true" />
                  Partly refunded
                </Badge>
              ) : null}
            </span>
            <span className="mt-1 block text-sm [overflow-wrap:anywhere] text-stone-500">
              {name || order.shippingInfo.email}
              <span className="hidden sm:inline"> · </span>
              <span className="block text-xs sm:inline sm:text-sm">{formatDateTime(order.createdAt)}</span>
            </span>
          </span>
          <span className="shrink-0 text-right">
            <span className="block text-sm font-semibold text-stone-950 tabular-nums">
              {formatUsd(order.amountCents)}
            </span>
            <span className="block text-xs text-stone-500">
              {order.items.reduce((n, i) => n + i.quantity, 0)} item
              {order.items.reduce((n, i) => n + i.quantity, 0) === 1 ? '' : 's'}
            </span>
          </span>
          <ChevronDown
            className={cn('size-5 shrink-0 text-stone-400 transition-transform', isOpen && 'rotate-180')}
            aria-hidden="true"
          />
          <span className="sr-only">{isOpen ? 'Hide details' : 'Show details'}</span>
        </button>
      </div>

      <div id={bodyId} hidden={!isOpen} className="border-t border-stone-100 bg-stone-50/40">
        {needsRefund ? (
          <div className="flex flex-wrap items-center gap-3 border-b border-red-100 bg-red-50 px-5 py-3 text-sm text-red-800">
            <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
            <p className="min-w-0 flex-1">
              <span className="font-semibold">Marked for refund.</span>{' '}
              {order.refundReason ?? 'The payment was confirmed after its stock was gone.'}
            </p>
            <Button size="sm" variant="danger" onClick={() => setRefunding(true)}>
              <RotateCcw className="size-3.5" aria-hidden="true" />
              Refund {formatUsd(order.refundableCents)}
            </Button>
          </div>
        ) : null}

        <div className="grid grid-cols-1 gap-6 p-5 md:grid-cols-[1fr_1fr_1.3fr]">
          <section aria-label="Shipping information" className="min-w-0">
            <h3 className="text-xs font-semibold tracking-wide text-stone-500 uppercase">
              Shipping Information
            </h3>
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

        {order.refunds.length > 0 ? (
          <div className="space-y-3 border-t border-stone-100 px-5 py-4">
            <OrderRefunds refunds={order.refunds} />
            <RefundSignatures refunds={order.refunds} />
          </div>
        ) : null}

        <OrderMails mails={order.mails} />

        <div className="border-t border-stone-100 bg-white px-5 py-4">
          {mode === 'edit' ? (
            <form onSubmit={onSave} className="space-y-4" aria-label={`Edit order ${order.shortId}`}>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Status">
                  <Select value={status} onChange={(e) => setStatus(e.target.value as OrderStatus)}>
                    {ORDER_STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {ORDER_STATUS_LABELS[s]}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field label="Tracking Number" error={trackingError} hint="USPS: spaces are fine">
                  <Input
                    value={tracking}
                    onChange={(e) => {
                      setTracking(e.target.value);
                      setTrackingError(undefined);
                    }}
                    maxLength={TRACKING_NUMBER_MAX_LENGTH}
                    placeholder="e.g. 9400 1000 0000 0000 0000 00"
                    autoComplete="off"
                  />
                </Field>
              </div>
              {update.isError && !trackingError ? (
                <p role="alert" className="text-sm font-medium text-red-600">
                  {errorMessage(update.error, 'Failed to update order')}
                </p>
              ) : null}
              <div className="flex justify-end gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setMode('view')}
                  disabled={update.isPending}
                >
                  Cancel
                </Button>
                <Button type="submit" size="sm" isLoading={update.isPending}>
                  Save
                </Button>
              </div>
            </form>
          ) : mode === 'delete' ? (
            <div
              role="group"
              aria-label="Confirm deletion"
              className="rounded-xl bg-red-50 p-4 ring-1 ring-red-100"
            >
              <p className="text-sm font-medium text-red-900">{ADMIN_MESSAGES.confirmDeleteOrder}</p>
              {remove.isError ? (
                <p role="alert" className="mt-2 text-sm text-red-700">
                  {errorMessage(remove.error, 'Failed to delete order')}
                </p>
              ) : null}
              <div className="mt-3 flex flex-wrap justify-end gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => setMode('view')}
                  disabled={remove.isPending}
                >
                  Cancel
                </Button>
                <Button variant="danger" size="sm" onClick={onDelete} isLoading={remove.isPending}>
                  Delete Order
                </Button>
              </div>
            </div>
          ) : (
            <div className="flex flex-wrap justify-end gap-2">
              {canRefund ? (
                <Button variant="outline" size="sm" onClick={() => setRefunding(true)}>
                  <RotateCcw className="size-3.5" aria-hidden="true" />
                  Refund
                </Button>
              ) : null}
              <Button variant="outline" size="sm" onClick={startEdit}>
                <Pencil className="size-3.5" aria-hidden="true" />
                Edit
              </Button>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  remove.reset();
                  setMode('delete');
                }}
                className="text-red-600 hover:bg-red-50 hover:text-red-700"
              >
                <Trash2 className="size-3.5" aria-hidden="true" />
                Delete
              </Button>
            </div>
          )}
        </div>
      </div>
      {isRefunding ? (
        <RefundDialog order={order} open onClose={() => setRefunding(false)} onRefunded={onDone} />
      ) : null}
    </article>
  );
}
