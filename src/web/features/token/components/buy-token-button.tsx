import { Suspense, useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses, type ButtonSize, type ButtonVariant } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { useHydrated } from '#web/lib/after-hydration';
import { cn } from '#web/lib/cn';
import { lazyWithPreload } from '#web/lib/lazy-with-preload';
import { useTokenInfo } from '#web/lib/shop-info';

// The modal, its QR code and wallet code load when the shopper shows intent (points at or focuses
// Buy Token) or clicks it, never on first load.
const BuyTokenModal = lazyWithPreload(() => import('./buy-token-modal').then((m) => m.BuyTokenModal));

/**
 * Until the app is live the button can open nothing (the modal is the app's): it says so
 * (aria-disabled) and, should the code be slow to come, shows it. Its look stays as usual for the
 * first 600 ms (a page live by then never changes), then fades to a dimmed, busy look, and back
 * when live. A press once the code is hydrating still counts (React replays it), hence no
 * pointer-events-none here.
 */
const notLiveYet =
  'transition-[color,background-color,border-color,box-shadow,opacity] duration-200 aria-disabled:pointer-events-auto aria-disabled:cursor-progress aria-disabled:delay-600 starting:aria-disabled:opacity-100';

/**
 * The storefront's Buy Token button: opens the Buy Token modal. On a shop whose chain has no
 * treasury to sell from (a real cluster without TREASURY_SECRET_KEY) it is a link to How to Buy,
 * which explains buying on an exchange (a link works before the app is live too).
 */
export function BuyTokenButton({
  variant = 'primary',
  size = 'md',
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}) {
  const token = useTokenInfo();
  const live = useHydrated();
  const [isOpen, setIsOpen] = useState(false);
  const close = useCallback(() => setIsOpen(false), []);
  const show = () => setIsOpen(true);
  if (token && !token.salesEnabled) {
    return (
      <Link to={paths.howToBuy.getHref()} className={buttonClasses({ variant, size, className })}>
        Buy Token
      </Link>
    );
  }
  const intent = BuyTokenModal.prefetch;
  return (
    <>
      <Button
        variant={variant}
        size={size}
        className={cn(notLiveYet, className)}
        onClick={() => BuyTokenModal.whenLoaded(show)}
        onPointerEnter={intent}
        onFocus={intent}
        onTouchStart={intent}
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        aria-disabled={live ? undefined : true}
      >
        Buy Token
      </Button>
      {isOpen ? (
        <Suspense fallback={null}>
          <BuyTokenModal onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
