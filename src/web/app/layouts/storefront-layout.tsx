import { Outlet } from 'react-router';
import { SkipLink } from '#web/components/skip-link';
import { CartDrawer } from '#web/features/checkout/components/cart-drawer';
import { CartSync } from '#web/features/checkout/components/cart-sync';
import { ConsentPrompts } from '#web/features/consent/components/consent-prompts';
import { lazyWhenVisible } from '#web/lib/lazy-when-visible';
import { StorefrontHeader } from './storefront-header';

/** The footer is below the first screen of most pages: its code loads when it comes near. */
const StorefrontFooter = lazyWhenVisible('site-footer', () =>
  import('./storefront-footer').then((m) => m.StorefrontFooter),
);

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
    </div>
  );
}
