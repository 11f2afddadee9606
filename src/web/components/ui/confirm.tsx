import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The question, e.g. 'Are you sure you want to delete this product?'. */
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions (default true). */
  isDestructive?: boolean;
  isBusy?: boolean;
  /** The confirm button cannot be pressed yet (e.g. what it would do is still loading). */
  isConfirmDisabled?: boolean;
  /** Shown inside the dialog (e.g. the server refused). */
  error?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  id?: string;
}

/**
 * Asks before something irreversible: a modal with the question, Cancel (focused first, the safe
 * choice) and the confirm button. Escape or the backdrop cancels.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  isDestructive = true,
  isBusy = false,
  isConfirmDisabled = false,
  error,
  onConfirm,
  onCancel,
  id = 'confirm-dialog',
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={isBusy ? () => undefined : onCancel} title={title} size="sm" id={id}>
      <p className="text-sm leading-relaxed text-stone-600" aria-live="polite">
        {message}
      </p>
      {error ? (
        <p role="alert" className="mt-3 text-sm font-medium text-red-600">
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the safe choice takes focus in a confirm dialog */}
        <Button variant="outline" size="sm" onClick={onCancel} disabled={isBusy} autoFocus>
          {cancelLabel}
        </Button>
        <Button
          variant={isDestructive ? 'danger' : 'primary'}
          size="sm"
          onClick={onConfirm}
          isLoading={isBusy}
          disabled={isConfirmDisabled}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
