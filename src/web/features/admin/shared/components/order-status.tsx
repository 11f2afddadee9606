import { cn } from '#web/lib/cn';
import { CircleCheck, CircleX, Clock, Package, Truck, type LucideIcon } from 'lucide-react';
import { ORDER_STATUS_LABELS, type OrderStatus } from '#common/schemas/admin-orders';
import { Badge, type BadgeTone } from '#web/components/ui/badge';

const STATUS: Record<OrderStatus, { icon: LucideIcon; tone: BadgeTone; iconClass: string }> = {
  pending: { icon: Clock, tone: 'orange', iconClass: 'bg-amber-50 text-amber-600' },
  shipped: { icon: Truck, tone: 'blue', iconClass: 'bg-sky-50 text-sky-600' },
  completed: { icon: CircleCheck, tone: 'green', iconClass: 'bg-emerald-50 text-emerald-600' },
  failed: { icon: CircleX, tone: 'red', iconClass: 'bg-red-50 text-red-600' },
};

const UNKNOWN = { icon: Package, tone: 'neutral' as BadgeTone, iconClass: 'bg-stone-100 text-stone-500' };

function look(status: string) {
  return STATUS[status as OrderStatus] ?? UNKNOWN;
}

export function orderStatusLabel(status: string): string {
  return ORDER_STATUS_LABELS[status as OrderStatus] ?? status;
}

/** The status as a tinted pill. */
export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={look(status).tone} hasDot>
      {orderStatusLabel(status)}
    </Badge>
  );
}

/** A round icon per status (a neutral parcel for anything unknown). */
export function OrderStatusIcon({ status, className }: { status: string; className?: string }) {
  const { icon: Icon, iconClass } = look(status);
  return (
    <span
      className={cn(
        'inline-flex size-10 shrink-0 items-center justify-center rounded-full',
        iconClass,
        className,
      )}
    >
      <Icon className="size-5" strokeWidth={1.75} aria-hidden="true" />
    </span>
  );
}
