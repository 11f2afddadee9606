import { Outlet } from 'react-router';
import { SkipLink } from '../../components/skip-link';
import { CartDrawer } from '../../features/checkout/components/cart-drawer';
import { CookieNotice } from '../../features/consent/components/cookie-notice';
import { DisclaimerModal } from '../../features/consent/components/disclaimer-modal';
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
      <CookieNotice />
      <DisclaimerModal />
    </div>
  );
}
