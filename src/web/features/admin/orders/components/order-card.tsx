import { ChevronDown, Pencil, RotateCcw, Trash2, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import { type AdminOrder } from '#common/schemas/admin-orders';
import { formatUsd } from '#common/money';
import { OrderRefunds } from '#web/components/order-refunds';
import { DemoOrderBadge } from '#web/components/demo-order-badge';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { cn } from '#web/lib/cn';
import { errorMessage } from '#web/lib/api-client';
import { OrderStatusBadge, OrderStatusIcon } from '#web/features/admin/shared/components/order-status';
import { formatDateTime } from '#web/features/admin/shared/format';
import { useDeleteOrder } from '../api/delete-order';
import { OrderDetails } from './order-details';
import { OrderEditForm } from './order-edit-form';
import { OrderMails } from './order-mails';
import { RefundDialog } from './refund-dialog';
import { RefundSignatures } from './refund-signature';

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
  const [isRefunding, setRefunding] = useState(false);
  const canRefund = order.refundableCents > 0;
  const isFullyRefunded = order.amountCents > 0 && order.refundedCents >= order.amountCents;
  const needsRefund = order.refundRequired && canRefund && order.refundedCents === 0;
  const remove = useDeleteOrder({ onDeleted: () => onDone(ADMIN_MESSAGES.orderDeleted) });
  const bodyId = useId();
  const name = `${order.shippingInfo.firstName} ${order.shippingInfo.lastName}`.trim();

  const startEdit = () => {
    setMode('edit');
    setOpen(true);
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

        <OrderDetails order={order} />

        {order.refunds.length > 0 ? (
          <div className="space-y-3 border-t border-stone-100 px-5 py-4">
            <OrderRefunds refunds={order.refunds} />
            <RefundSignatures refunds={order.refunds} />
          </div>
        ) : null}

        <OrderMails mails={order.mails} />

        <div className="border-t border-stone-100 bg-white px-5 py-4">
          {mode === 'edit' ? (
            <OrderEditForm
              order={order}
              onSaved={(message) => {
                setMode('view');
                onDone(message);
              }}
              onCancel={() => setMode('view')}
            />
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
