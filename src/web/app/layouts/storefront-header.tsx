import { cn } from '#web/lib/cn';
import { Menu, ShieldCheck, ShoppingBag, UserRound } from 'lucide-react';
import { Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { BrandLockup } from '#web/components/brand';
import { Skeleton } from '#web/components/ui/skeleton';
import { paths } from '#web/config/paths';
import { useHydrated } from '#web/lib/after-hydration';
import { useCurrentUser } from '#web/lib/current-user';
import { lazyWithPreload } from '#web/lib/lazy-with-preload';
import { preloadCartDrawer } from '#web/features/checkout/components/cart-drawer';
import { selectItemCount, useCartStore } from '#web/features/checkout/stores/cart-store';
import { BuyTokenButton } from '#web/features/token/components/buy-token-button';
import { mainNavLinks } from './nav-links';

/** The side menu of small screens: its code (and the drawer's) loads on intent or first open. */
const MobileMenu = lazyWithPreload(() => import('./mobile-menu').then((m) => m.MobileMenu));

const iconButton =
  'relative inline-flex size-10 shrink-0 items-center justify-center rounded-full text-stone-700 transition-colors hover:bg-stone-100 hover:text-stone-950';

/**
 * The cart and menu buttons open the app's drawers: until the app is live they can open nothing,
 * say so (aria-disabled) and, should the code be slow to come, show it. They look as usual for the
 * first 600 ms (a page live by then never changes), then fade to a dimmed, busy look, and back when
 * live (as BuyTokenButton). A press once the code is hydrating still counts: React replays it.
 */
const notLiveYet =
  'transition-[color,background-color,opacity] duration-200 aria-disabled:cursor-progress aria-disabled:opacity-45 aria-disabled:delay-600 starting:aria-disabled:opacity-100';

function AccountLink() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Skeleton className="mx-2 hidden h-4 w-12 md:block" />;
  const to = user ? paths.profile.root.getHref() : paths.login.getHref();
  const label = user ? 'Profile' : 'Login';
  return (
    <>
      <NavLink
        to={to}
        className={({ isActive }) =>
          cn(
            'hidden h-10 items-center rounded-full px-3 text-sm font-medium transition-colors hover:text-stone-950 md:inline-flex',
            isActive ? 'text-rose-700' : 'text-stone-700',
          )
        }
      >
        {label}
      </NavLink>
      <Link to={to} aria-label={label} className={cn(iconButton, 'md:hidden')}>
        <UserRound className="size-5" strokeWidth={1.75} aria-hidden="true" />
      </Link>
    </>
  );
}

function CartButton({ live }: { live: boolean }) {
  const count = useCartStore(selectItemCount);
  const open = useCartStore((s) => s.open);
  return (
    <button
      type="button"
      onClick={open}
      onPointerEnter={preloadCartDrawer}
      onFocus={preloadCartDrawer}
      onTouchStart={preloadCartDrawer}
      className={cn(iconButton, notLiveYet)}
      aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
      aria-disabled={live ? undefined : true}
    >
      <ShoppingBag className="size-5" strokeWidth={1.75} aria-hidden="true" />
      {count > 0 ? (
        <span
          aria-hidden="true"
          className="absolute top-0.5 right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-rose-600 px-1 text-[10px] leading-none font-semibold text-white tabular-nums ring-2 ring-white"
        >
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </button>
  );
}

/** Fixed top navigation of the storefront. */
export function StorefrontHeader() {
  const live = useHydrated();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const [menuWasOpened, setMenuWasOpened] = useState(false);
  if (isMenuOpen && !menuWasOpened) setMenuWasOpened(true);
  // Opened once its code is in (lazyWithPreload's whenLoaded), not at the click.
  const openMenu = () => setMenuOpen(true);
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-stone-200/70 bg-white">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-2 px-4 sm:px-8">
        <Link to={paths.home.getHref()} className="-ml-1 rounded-lg p-1">
          <BrandLockup />
        </Link>

        <nav aria-label="Main" className="ml-8 hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNavLinks.map((link) => (
              <li key={link.label}>
                <Link
                  to={link.to}
                  className="inline-flex h-10 items-center rounded-full px-3.5 text-sm font-medium text-stone-600 transition-colors hover:text-stone-950"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-0.5 sm:gap-1">
          <div className="mr-2 hidden md:block">
            <BuyTokenButton size="sm" />
          </div>
          <AccountLink />
          <Link
            to={paths.admin.login.getHref()}
            aria-label="Admin login"
            title="Admin login"
            className={iconButton}
          >
            <ShieldCheck className="size-5" strokeWidth={1.75} aria-hidden="true" />
          </Link>
          <CartButton live={live} />
          <button
            type="button"
            onClick={() => MobileMenu.whenLoaded(openMenu)}
            onPointerEnter={MobileMenu.prefetch}
            onFocus={MobileMenu.prefetch}
            onTouchStart={MobileMenu.prefetch}
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={isMenuOpen}
            aria-disabled={live ? undefined : true}
            className={cn(iconButton, notLiveYet, '-mr-2 lg:hidden')}
          >
            <Menu className="size-5.5" strokeWidth={1.75} aria-hidden="true" />
          </button>
        </div>
      </div>
      {menuWasOpened ? (
        <Suspense fallback={null}>
          <MobileMenu open={isMenuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      ) : null}
    </header>
  );
}
