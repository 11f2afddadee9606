import { Suspense, useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, type ButtonSize, type ButtonVariant } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { lazyWithPreload } from '#web/lib/lazy-with-preload';
import { useTokenInfo } from '#web/lib/shop-info';

// The modal, its QR code and wallet code load when the shopper shows intent (points at or focuses
// Buy Token) or clicks it, never on first load.
const BuyTokenModal = lazyWithPreload(() => import('./buy-token-modal').then((m) => m.BuyTokenModal));

/**
 * The storefront's Buy Token button: opens the Buy Token modal. On a shop whose chain has no
 * treasury to sell from (a real cluster without TREASURY_SECRET_KEY) it takes the shopper to How
 * to Buy instead, which explains buying on an exchange.
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
  const navigate = useNavigate();
  const token = useTokenInfo();
  const [isOpen, setIsOpen] = useState(false);
  const close = useCallback(() => setIsOpen(false), []);
  const show = () => setIsOpen(true);
  const intent = token && !token.salesEnabled ? undefined : BuyTokenModal.prefetch;
  const open = () => {
    if (token && !token.salesEnabled) void navigate(paths.howToBuy.getHref());
    else BuyTokenModal.whenLoaded(show);
  };
  return (
    <>
      <Button
        variant={variant}
        size={size}
        className={className}
        onClick={open}
        onPointerEnter={intent}
        onFocus={intent}
        onTouchStart={intent}
        aria-haspopup="dialog"
        aria-expanded={isOpen}
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
