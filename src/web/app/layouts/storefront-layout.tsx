import { Outlet } from 'react-router';
import { SkipLink } from '#web/components/skip-link';
import { CartDrawer } from '#web/features/checkout/components/cart-drawer';
import { CartSync } from '#web/features/checkout/components/cart-sync';
import { ConsentPrompts } from '#web/features/consent/components/consent-prompts';
import { PurchaseReceiptSlot } from '#web/features/token/components/purchase-receipt-slot';
import { StorefrontFooter } from './storefront-footer';
import { StorefrontHeader } from './storefront-header';

/** Top navigation, the page, the footer; the disclaimer and cookie notice until they are answered. */
export function StorefrontLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <StorefrontHeader />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col pt-16 outline-none">
        <Outlet />
      </main>
      <StorefrontFooter />
      <CartDrawer />
      <CartSync />
      <ConsentPrompts />
      <PurchaseReceiptSlot />
    </div>
  );
}
