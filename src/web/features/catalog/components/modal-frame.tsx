import type { ReactNode } from 'react';
import { Modal } from '#web/components/ui/dialog';
import { cn } from '#web/lib/cn';

/**
 * The product view's modal: the shared Modal primitive (focus trap, Escape, backdrop click, focus
 * returned, scroll locked) in a wide, rounded layout of its own, without Dialog's title row.
 */
export function ModalFrame({
  open,
  onClose,
  labelledBy,
  size = 'lg',
  children,
}: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  size?: 'sm' | 'lg';
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      aria-labelledby={labelledBy}
      className={cn(
        'animate-dialog-in m-auto max-h-[calc(100dvh-1.5rem)] w-[calc(100%-1.5rem)] overflow-y-auto overscroll-contain rounded-3xl border-0 bg-white p-0 text-stone-900 shadow-2xl shadow-stone-950/25 sm:max-h-[calc(100dvh-4rem)] sm:w-[calc(100%-4rem)]',
        size === 'sm' ? 'max-w-lg' : 'max-w-5xl',
      )}
    >
      {children}
    </Modal>
  );
}
