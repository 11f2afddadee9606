import { cn } from '#web/lib/cn';
import { X } from 'lucide-react';
import { useContext, useEffect, useRef, type ReactNode } from 'react';
import { UNSAFE_FrameworkContext as FrameworkContext } from 'react-router';
import { useHydrated } from '#web/lib/after-hydration';

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable="true"]',
].join(',');

function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0 && !el.closest('[inert]'),
  );
}

/**
 * A dialog the server rendered open (the disclaimer of a first visit, a shared product's modal),
 * before the app's code is in. Runs as an inline script right after the dialog's HTML, so before
 * the first paint: the dialog becomes modal at once (top layer, page behind dimmed and inert, no
 * entrance played), and until the app takes it over (Modal sets data-live):
 * - a form of the dialog (the disclaimer's acknowledgement) is the browser's: a press on it is a
 *   plain form post, which the server answers with the page again. The dialog closes at once,
 *   marked data-dismissed (the app, should it take over before the answer, applies the same answer
 *   instead of showing it again, see Modal). The press never reaches React: were the page's code
 *   already hydrating, React would first hydrate the whole page at once to hand it over (its
 *   handling of a press on a part it has not hydrated yet), which on a slow phone takes seconds;
 * - Escape presses its [data-dismiss] control (the close icon) instead of only hiding it, which
 *   the app would show again.
 * Serialized with toString(): self-contained (no imports, no names from outside).
 */
function adoptServerDialog(script: Element | null): void {
  const dialog = script?.previousElementSibling;
  if (!(dialog instanceof HTMLDialogElement) || !dialog.open || dialog.matches(':modal')) return;
  const isLive = () => dialog.hasAttribute('data-live');
  dialog.setAttribute('data-server-open', '');
  dialog.removeAttribute('open');
  dialog.showModal();

  const inForm = (target: EventTarget | null) =>
    target instanceof Element &&
    dialog.contains(target) &&
    target.closest('form, button[type="submit"]') !== null;
  // Listened for on window, in the capture phase: before React's listeners on the document.
  const press = (event: Event) => {
    if (!isLive() && inForm(event.target)) event.stopPropagation();
  };
  for (const type of [
    'pointerdown',
    'pointerup',
    'pointercancel',
    'mousedown',
    'mouseup',
    'touchstart',
    'touchend',
    'touchcancel',
    'click',
    'auxclick',
    'dblclick',
    'contextmenu',
    'keydown',
    'keypress',
    'keyup',
  ]) {
    window.addEventListener(type, press, { capture: true, passive: true });
  }
  window.addEventListener(
    'submit',
    (event) => {
      if (isLive() || !inForm(event.target)) return;
      event.stopPropagation();
      dialog.setAttribute('data-dismissed', '');
      dialog.close();
    },
    { capture: true },
  );
  dialog.addEventListener('cancel', (event) => {
    if (isLive()) return;
    event.preventDefault();
    const dismiss = dialog.querySelector('[data-dismiss]');
    if (dismiss instanceof HTMLElement) dismiss.click();
  });
}

const ADOPT_SERVER_DIALOG = `(${adoptServerDialog.toString()})(document.currentScript)`;

/**
 * The page's CSP nonce for the adoption script: the one the server's router was given, which React
 * Router keeps as the default of its own nonce-aware components. None in the browser, where the
 * script is not run again.
 */
function useScriptNonce(): string | undefined {
  return useContext(FrameworkContext)?.nonce;
}

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  /** Accessible name: either a label or the id of the visible title. */
  'aria-label'?: string;
  'aria-labelledby'?: string;
  /** Clicking the dimmed backdrop closes (default true). */
  closeOnBackdrop?: boolean;
  className?: string;
  id?: string;
}

/**
 * The one modal primitive: the native <dialog> (top layer, page behind made inert), plus a Tab
 * trap that keeps focus cycling inside, Escape to close, focus returned to the opener, and the page
 * scroll locked (see styles.css). Rendered only while open. Dialog and Drawer below give it their
 * layouts; a feature with a layout of its own (the product view) passes its classes.
 */
export function Modal({
  open,
  onClose,
  children,
  closeOnBackdrop = true,
  className,
  id,
  ...aria
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const nonce = useScriptNonce();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    // Answered before the app was live (adoptServerDialog closed it as its form went to the
    // server): the app applies the answer now rather than showing the dialog again.
    if (dialog.hasAttribute('data-dismissed')) {
      onCloseRef.current();
      return;
    }
    // From here on the app handles Escape and the forms (adoptServerDialog stands back).
    dialog.setAttribute('data-live', '');
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Rendered on the server it arrives open but not modal (readable without JavaScript), unless
    // its script made it modal (adoptServerDialog): make it modal, without playing its entrance
    // again (it has been on screen since the first paint, see styles.css).
    if (dialog.open && !dialog.matches(':modal')) {
      dialog.setAttribute('data-server-open', '');
      dialog.removeAttribute('open');
    }
    if (!dialog.open) dialog.showModal();

    const close = () => onCloseRef.current();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableIn(dialog);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === dialog)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (!closeOnBackdrop || event.target !== dialog) return;
      const rect = dialog.getBoundingClientRect();
      const inside =
        event.clientX >= rect.left &&
        event.clientX <= rect.right &&
        event.clientY >= rect.top &&
        event.clientY <= rect.bottom;
      if (!inside) close();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', close);
    dialog.addEventListener('keydown', onKeyDown);
    dialog.addEventListener('click', onClick);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', close);
      dialog.removeEventListener('keydown', onKeyDown);
      dialog.removeEventListener('click', onClick);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, [open, closeOnBackdrop]);

  if (!open) return null;
  return (
    <>
      {/* The server's HTML shows an open dialog as such (over the page's fixed bars), so a page with
          one (a shared product URL) reads right before and without JavaScript; its script makes
          it modal at once, and the app takes it over (above). */}
      <dialog
        ref={ref}
        id={id}
        className={cn('[&:not(:modal)]:z-50', className)}
        open={typeof document === 'undefined' ? true : undefined}
        suppressHydrationWarning
        {...aria}
      >
        {children}
      </dialog>
      {/* In the server's HTML and kept while it hydrates (the browser does not run it again). */}
      {hydrated ? null : (
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: ADOPT_SERVER_DIALOG }}
        />
      )}
    </>
  );
}

/** A close control that submits a form (its answer) instead of only closing. */
export interface CloseSubmit {
  /** The form's id. */
  form: string;
  name: string;
  value: string;
}

export interface DialogProps extends Omit<ModalProps, 'className'> {
  /** Visible title; also the dialog's accessible name. */
  title: ReactNode;
  /**
   * The close icon submits this form with this answer (the disclaimer's acknowledgement), so it
   * works before the app's code is in; the form's own handler then closes the dialog.
   */
  closeSubmits?: CloseSubmit;
  description?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const dialogSizes = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' } as const;

/** A centred modal with a title and a close button. */
export function Dialog({
  title,
  description,
  size = 'md',
  closeSubmits,
  className,
  children,
  ...props
}: DialogProps) {
  const titleId = `${props.id ?? 'dialog'}-title`;
  return (
    <Modal
      aria-labelledby={titleId}
      {...props}
      className={cn(
        'animate-dialog-in m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] overflow-y-auto rounded-2xl border-0 bg-white p-0 text-stone-900 shadow-2xl shadow-stone-950/20',
        // Without JavaScript it stays a plain open dialog: centred over the dimmed page all the same.
        '[&:not(:modal)]:fixed [&:not(:modal)]:inset-0 [&:not(:modal)]:shadow-[0_0_0_100vmax] [&:not(:modal)]:shadow-stone-950/50',
        dialogSizes[size],
        className,
      )}
    >
      <div className="flex items-start justify-between gap-4 px-6 pt-6">
        <div className="space-y-1">
          <h2 id={titleId} className="text-lg font-semibold tracking-tight">
            {title}
          </h2>
          {description ? <p className="text-sm text-stone-500">{description}</p> : null}
        </div>
        <CloseButton onClick={props.onClose} submits={closeSubmits} />
      </div>
      <div className="px-6 pt-4 pb-6">{children}</div>
    </Modal>
  );
}

export interface DrawerProps extends Omit<ModalProps, 'className'> {
  side?: 'left' | 'right';
  className?: string;
}

/** A full-height panel sliding in from one side; bring your own header (see DrawerHeader). */
export function Drawer({ side = 'right', className, children, ...props }: DrawerProps) {
  return (
    <Modal
      {...props}
      className={cn(
        'fixed inset-y-0 m-0 flex h-dvh max-h-none w-[min(22rem,calc(100vw-2.5rem))] max-w-none flex-col border-0 bg-white p-0 text-stone-900 shadow-2xl shadow-stone-950/20',
        side === 'left'
          ? 'animate-drawer-in-left right-auto left-0'
          : 'animate-drawer-in-right right-0 left-auto',
        className,
      )}
    >
      {children}
    </Modal>
  );
}

export function DrawerHeader({
  children,
  onClose,
  closeLabel = 'Close',
}: {
  children: ReactNode;
  onClose: () => void;
  closeLabel?: string;
}) {
  return (
    <div className="flex h-16 shrink-0 items-center justify-between gap-3 border-b border-stone-100 px-5">
      <div className="min-w-0">{children}</div>
      <CloseButton onClick={onClose} label={closeLabel} />
    </div>
  );
}

export function CloseButton({
  onClick,
  label = 'Close',
  submits,
}: {
  onClick: () => void;
  label?: string;
  submits?: CloseSubmit;
}) {
  return (
    <button
      {...(submits ? { type: 'submit' as const, ...submits } : { type: 'button' as const, onClick })}
      // What Escape presses before the app is live (adoptServerDialog).
      data-dismiss=""
      aria-label={label}
      className="-mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-full text-stone-500 transition-colors hover:bg-stone-100 hover:text-stone-900"
    >
      <X className="size-5" aria-hidden="true" />
    </button>
  );
}
