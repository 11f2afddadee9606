import { useState, type FormEvent } from 'react';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import {
  AdminOrderUpdateSchema,
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  TRACKING_NUMBER_MAX_LENGTH,
  type AdminOrder,
  type OrderStatus,
} from '#common/schemas/admin-orders';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { useUpdateOrder } from '../api/update-order';

export interface OrderEditFormProps {
  order: AdminOrder;
  /** Saved: the card goes back to its view and the list shows `message`. */
  onSaved: (message: string) => void;
  onCancel: () => void;
}

/** An order's status and tracking number; mounted fresh for each edit, so it starts from the order. */
export function OrderEditForm({ order, onSaved, onCancel }: OrderEditFormProps) {
  const [status, setStatus] = useState<OrderStatus>(order.status);
  const [tracking, setTracking] = useState(order.trackingNumber ?? '');
  const [trackingError, setTrackingError] = useState<string | undefined>();
  const update = useUpdateOrder();

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
        onSuccess: () => onSaved(ADMIN_MESSAGES.orderUpdated),
        onError: (error) => {
          if (isApiError(error) && error.fields.trackingNumber) setTrackingError(error.fields.trackingNumber);
        },
      },
    );
  };

  return (
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
        <Button variant="outline" size="sm" onClick={onCancel} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" size="sm" isLoading={update.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
