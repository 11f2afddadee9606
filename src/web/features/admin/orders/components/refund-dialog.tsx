import { useId, useState, type FormEvent } from 'react';
import { formatUsd, parseDollarsToCents } from '#common/money';
import type { AdminOrder } from '#common/schemas/admin-orders';
import { REFUND_MESSAGES, REFUND_REASON_MAX_LENGTH, RefundInputSchema } from '#common/schemas/refund';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Textarea } from '#web/components/ui/textarea';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { cn } from '#web/lib/cn';
import { paymentMethodLabel } from '#web/features/admin/shared/format';
import { useCreateRefund } from '../api/create-refund';

export const REFUND_DIALOG_TEXTS = {
  amountInvalid: 'Enter an amount in dollars, e.g. 12.50',
} as const;

type Scope = 'full' | 'partial';
type FieldErrors = Partial<Record<'amountCents' | 'reason', string>>;

export interface RefundDialogProps {
  order: AdminOrder;
  open: boolean;
  onClose: () => void;
  /** After the server accepted the refund (it is carried out by the refund worker). */
  onRefunded: (message: string) => void;
}

/**
 * Refund an order, in full or in part, with a reason: validated with the server's own schema
 * (RefundInputSchema) before it is sent; the server's field errors land on their fields.
 */
export function RefundDialog({ order, open, onClose, onRefunded }: RefundDialogProps) {
  const [scope, setScope] = useState<Scope>('full');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateRefund();
  const dialogId = `refund-${order.id}`;
  const scopeName = useId();
  const refundable = order.refundableCents;
  const coin = order.paymentMethod === 'card' ? 'the card that paid' : 'the paying wallet';

  const close = () => {
    if (create.isPending) return;
    onClose();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: FieldErrors = {};
    let amountCents: number | undefined;
    if (scope === 'partial') {
      const cents = parseDollarsToCents(amount);
      if (cents === null) next.amountCents = REFUND_DIALOG_TEXTS.amountInvalid;
      else if (cents > refundable) next.amountCents = REFUND_MESSAGES.tooMuch;
      else amountCents = cents;
    }
    const parsed = RefundInputSchema.safeParse(
      amountCents === undefined ? { reason } : { amountCents, reason },
    );
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if ((key === 'amountCents' || key === 'reason') && !next[key]) next[key] = issue.message;
      }
    }
    setErrors(next);
    if (next.amountCents || next.reason || !parsed.success) return;
    create.mutate(
      { orderId: order.id, ...parsed.data },
      {
        onSuccess: () => {
          onRefunded(REFUND_MESSAGES.created);
          onClose();
        },
        onError: (error) => {
          if (!isApiError(error)) return;
          setErrors({ amountCents: error.fields.amountCents, reason: error.fields.reason });
        },
      },
    );
  };

  const serverError =
    create.isError &&
    !(isApiError(create.error) && (create.error.fields.amountCents || create.error.fields.reason))
      ? errorMessage(create.error, 'The refund could not be started')
      : null;

  return (
    <Dialog
      id={dialogId}
      open={open}
      onClose={close}
      closeOnBackdrop={!create.isPending}
      title={`Refund order #${order.shortId}`}
      description={`The money goes back to ${coin} (${paymentMethodLabel(order.paymentMethod)}).`}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={`Refund order ${order.shortId}`}>
        <div className="grid grid-cols-3 gap-2 rounded-xl bg-stone-50 p-3 text-center text-xs ring-1 ring-stone-200/80">
          <p>
            <span className="block text-stone-500">Charged</span>
            <span className="block text-sm font-semibold text-stone-950 tabular-nums">
              {formatUsd(order.amountCents)}
            </span>
          </p>
          <p>
            <span className="block text-stone-500">Refunded</span>
            <span className="block text-sm font-semibold text-stone-950 tabular-nums">
              {formatUsd(order.refundedCents)}
            </span>
          </p>
          <p>
            <span className="block text-stone-500">Refundable</span>
            <span className="block text-sm font-semibold text-rose-700 tabular-nums" data-refundable="">
              {formatUsd(refundable)}
            </span>
          </p>
        </div>

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-stone-800">Amount</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {(['full', 'partial'] as const).map((value) => (
              <label
                key={value}
                className={cn(
                  'grid cursor-pointer grid-cols-[auto_1fr] items-center gap-x-3 rounded-xl border px-3.5 py-3 text-sm transition-colors has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-rose-600/15',
                  scope === value
                    ? 'border-rose-600 bg-rose-50/60 text-stone-950'
                    : 'border-stone-300 bg-white text-stone-700 hover:border-stone-400',
                )}
              >
                <input
                  type="radio"
                  name={scopeName}
                  value={value}
                  checked={scope === value}
                  onChange={() => {
                    setScope(value);
                    setErrors((e) => ({ ...e, amountCents: undefined }));
                  }}
                  className="row-span-2 size-4 accent-rose-600"
                />
                <span className="font-medium">{value === 'full' ? 'Full refund' : 'Partial refund'}</span>
                <span className="col-start-2 text-xs text-stone-500">
                  {value === 'full' ? `${formatUsd(refundable)}, all that remains` : 'An amount you choose'}
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {scope === 'partial' ? (
          <Field
            label="Amount to refund (USD)"
            error={errors.amountCents}
            hint={`Up to ${formatUsd(refundable)}`}
            isRequired
          >
            <div className="relative">
              <span
                className="pointer-events-none absolute inset-y-0 left-3.5 flex items-center text-stone-500"
                aria-hidden="true"
              >
                $
              </span>
              <Input
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.00"
                className="pl-7 tabular-nums"
              />
            </div>
          </Field>
        ) : errors.amountCents ? (
          <p role="alert" className="text-sm font-medium text-red-600">
            {errors.amountCents}
          </p>
        ) : null}

        <Field
          label="Reason"
          error={errors.reason}
          hint="Shown to the customer and kept in the audit log"
          isRequired
        >
          <Textarea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={REFUND_REASON_MAX_LENGTH}
            rows={3}
            placeholder="e.g. Item arrived damaged"
          />
        </Field>

        {serverError ? <Alert variant="error">{serverError}</Alert> : null}

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" isLoading={create.isPending}>
            {scope === 'full' ? `Refund ${formatUsd(refundable)}` : 'Refund'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
