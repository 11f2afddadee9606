import { ArrowRight, CircleCheck, FlaskConical, Hash, Mail, MapPin } from 'lucide-react';
import { Link } from 'react-router';
import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';
import { formatUsd } from '#common/money';
import { useCurrentUser } from '#web/lib/current-user';
import type { OrderConfirmation } from '../stores/checkout-store';
import { orderStatusHref } from '../utils/order-links';
import { LocalMailNote } from '#web/components/local-mail-note';

/**
 * Step 4: 'Thank You for Your Order!', the order's number and a link to its page, the order total,
 * and who it ships to. A demo order (paid with test money) promises no shipping: a demo line instead.
 */
export function ConfirmationStep({
  confirmation,
  onLeave,
}: {
  confirmation: OrderConfirmation;
  /** The shopper follows the order link: the drawer closes. */
  onLeave: () => void;
}) {
  const { user } = useCurrentUser();
  const href = orderStatusHref(confirmation, Boolean(user));
  // Paid with test money, as the payment's status said (absent when it was not known here).
  const demo = confirmation.demo === true;
  return (
    <div className="flex flex-col items-center pt-4 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-emerald-50 text-emerald-600 ring-8 ring-emerald-50/50">
        <CircleCheck className="size-8" strokeWidth={1.75} aria-hidden="true" />
      </span>
      <h3 className="mt-6 text-2xl font-semibold tracking-tight text-balance text-stone-950">
        Thank You for Your Order!
      </h3>
      <p className="mt-2 max-w-xs text-sm leading-relaxed text-stone-500">
        Your payment went through and your order is placed.{demo ? '' : ' We are getting it ready.'}
      </p>
      {demo ? (
        <p
          className="mt-4 flex max-w-xs items-start gap-2 rounded-xl bg-orange-50 px-3.5 py-2.5 text-left text-sm leading-relaxed text-orange-900 ring-1 ring-orange-200/70"
          data-testid="demo-order-note"
        >
          <FlaskConical className="mt-0.5 size-4 shrink-0 text-orange-600" aria-hidden="true" />
          {DEMO_LEDGER_TEXTS.orderConfirmationLine}
        </p>
      ) : null}

      <dl className="mt-8 w-full divide-y divide-stone-100 rounded-2xl border border-stone-200 text-left text-sm">
        {confirmation.orderNumber ? (
          <div className="flex items-center justify-between gap-4 px-4 py-3.5">
            <dt className="flex items-center gap-2 text-stone-600">
              <Hash className="size-4 text-stone-400" aria-hidden="true" />
              Order number
            </dt>
            <dd
              className="text-[15px] font-semibold tracking-[0.08em] text-stone-950 tabular-nums"
              data-testid="order-number"
            >
              {confirmation.orderNumber}
            </dd>
          </div>
        ) : null}
        <div className="flex items-baseline justify-between gap-4 px-4 py-3.5">
          <dt className="text-stone-600">Order total</dt>
          <dd
            className="text-lg font-semibold tracking-tight text-stone-950 tabular-nums"
            data-testid="confirmation-total"
          >
            {formatUsd(confirmation.totalCents)}
          </dd>
        </div>
        <div className="px-4 py-3.5">
          <dt className="text-stone-600">{demo ? 'Ordered by' : 'Shipping to'}</dt>
          <dd className="mt-2 space-y-1.5 text-stone-900">
            <p className="flex items-center gap-2 font-medium">
              <MapPin className="size-4 text-stone-400" aria-hidden="true" />
              {confirmation.name}
            </p>
            <p className="flex items-center gap-2 break-all">
              <Mail className="size-4 shrink-0 text-stone-400" aria-hidden="true" />
              {confirmation.email}
            </p>
          </dd>
        </div>
      </dl>

      {href ? (
        <Link
          to={href}
          onClick={onLeave}
          className="mt-5 inline-flex items-center gap-1.5 rounded-full px-3 py-1.5 text-sm font-semibold text-rose-700 underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-rose-500 focus-visible:outline-none"
        >
          View Order Status
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      ) : null}
      <p className="mt-3 max-w-xs text-xs leading-relaxed text-stone-500">
        A confirmation with a link to this order is on its way to your inbox.
        <LocalMailNote />
      </p>
    </div>
  );
}
