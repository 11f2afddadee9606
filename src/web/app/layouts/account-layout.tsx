import { cn } from '#web/lib/cn';
import { ArrowLeft, LogOut, Mail, Menu, Package, Settings, Wallet } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, Outlet, useFetcher } from 'react-router';
import { BrandLockup } from '#web/components/brand';
import { SkipLink } from '#web/components/skip-link';
import { Drawer, DrawerHeader } from '#web/components/ui/dialog';
import { Skeleton } from '#web/components/ui/skeleton';
import { paths } from '#web/config/paths';
import { useCurrentUser } from '#web/lib/current-user';
import { RequireUser } from '#web/features/auth/components/require-user';
import { VerifyEmailBanner } from '#web/features/auth/components/verify-email-banner';
import { useEmailStatus } from '#web/features/auth/api/email-flows';

const accountLinks = [
  { label: 'Orders', to: paths.profile.orders.getHref(), icon: Package },
  { label: 'Messages', to: paths.profile.messages.getHref(), icon: Mail },
  { label: 'Wallet & Rewards', to: paths.profile.wallet.getHref(), icon: Wallet },
  { label: 'Settings', to: paths.profile.settings.getHref(), icon: Settings },
] as const;

/**
 * Sign Out posts to the sign-out route (routes/sign-out.tsx), which ends the session on the server
 * and redirects to / (the spec); without the code it is a plain form post. One fetcher for the
 * side menu and the drawer, so the layout knows when a sign-out is under way.
 */
const SIGN_OUT_ACTION = '/sign-out';
const SIGN_OUT_FETCHER = 'account-sign-out';

/** What the sign-out action answers when the server could not end the session. */
interface SignOutFailure {
  error?: { message: string };
}

function useSignOutFetcher() {
  return useFetcher<SignOutFailure>({ key: SIGN_OUT_FETCHER });
}

const rowClasses =
  'flex h-11 w-full items-center gap-3 rounded-xl px-3 text-sm font-medium transition-colors disabled:opacity-60';

function AccountMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { user } = useCurrentUser();
  const signOut = useSignOutFetcher();
  const email = user?.email ?? '';
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-3 px-3 pb-6">
        <span
          aria-hidden="true"
          className="flex size-11 shrink-0 items-center justify-center rounded-full bg-rose-50 text-base font-semibold text-rose-700 uppercase ring-1 ring-rose-100"
        >
          {email.charAt(0) || '?'}
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-stone-950" title={email}>
            {email}
          </p>
          <p className="mt-0.5 text-xs font-medium text-stone-500">Member</p>
        </div>
      </div>
      <nav aria-label="Account">
        <ul className="space-y-0.5">
          {accountLinks.map(({ label, to, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cn(
                    rowClasses,
                    isActive
                      ? 'bg-rose-50 text-rose-700'
                      : 'text-stone-600 hover:bg-stone-100 hover:text-stone-950',
                  )
                }
              >
                <Icon className="size-4.5" strokeWidth={1.75} aria-hidden="true" />
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6 space-y-0.5 border-t border-stone-200/80 pt-6">
        <signOut.Form method="post" action={SIGN_OUT_ACTION}>
          <button
            type="submit"
            disabled={signOut.state !== 'idle'}
            className={cn(rowClasses, 'text-stone-600 hover:bg-stone-100 hover:text-stone-950')}
          >
            <LogOut className="size-4.5" strokeWidth={1.75} aria-hidden="true" />
            Sign Out
          </button>
        </signOut.Form>
        <Link
          to={paths.home.getHref()}
          onClick={onNavigate}
          className={cn(rowClasses, 'text-stone-600 hover:bg-stone-100 hover:text-stone-950')}
        >
          <ArrowLeft className="size-4.5" strokeWidth={1.75} aria-hidden="true" />
          Back to Store
        </Link>
        {signOut.state === 'idle' && signOut.data?.error ? (
          <p role="alert" className="px-3 pt-2 text-xs font-medium text-red-600">
            {signOut.data.error.message}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Small screens: who is signed in, since the side menu is tucked away in a drawer. */
function MobileUserStrip() {
  const { user } = useCurrentUser();
  return (
    <p className="mb-6 flex items-center gap-2 text-sm text-stone-500 lg:hidden">
      <span className="truncate font-medium text-stone-800">{user?.email}</span>
      <span aria-hidden="true">·</span>
      <span className="shrink-0">Member</span>
    </p>
  );
}

/** An account page's heading and first card, while they load. */
function PageSkeleton() {
  return (
    <div className="space-y-4">
      <Skeleton className="h-9 w-48" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}

function AccountSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-10 px-5 py-10 sm:px-8 lg:grid-cols-[16rem_1fr]">
      <div className="hidden space-y-3 lg:block">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
      <PageSkeleton />
    </div>
  );
}

/**
 * The page, under the banner that asks an unconfirmed address to be confirmed. The page mounts at
 * once (its queries start) but shows only once the email status is known: a banner arriving
 * later would push the page down under the reader's eyes.
 */
function AccountMain() {
  const emailStatus = useEmailStatus();
  return (
    <main id="main" tabIndex={-1} className="min-w-0 outline-none">
      <MobileUserStrip />
      {emailStatus.isPending ? <PageSkeleton /> : <VerifyEmailBanner />}
      <div hidden={emailStatus.isPending}>
        <Outlet />
      </div>
    </main>
  );
}

/**
 * True from the moment the server has ended the session of a sign-out started here until the
 * layout is gone: the user is forgotten before the redirect to / shows (routes/sign-out.tsx), and
 * the guard must not send to /login meanwhile, nor the pages ask again without a session.
 */
function useSignedOutHere(): boolean {
  const { user, isLoading } = useCurrentUser();
  const signingOut = useSignOutFetcher().state !== 'idle';
  const [signedOut, setSignedOut] = useState(false);
  const gone = !isLoading && !user;
  if (signingOut && gone && !signedOut) setSignedOut(true);
  return gone && (signingOut || signedOut);
}

/** The customer account area: side menu (a drawer on small screens) and the page. */
export function AccountLayout() {
  const [isMenuOpen, setMenuOpen] = useState(false);
  const signedOut = useSignedOutHere();
  return (
    <div className="flex min-h-dvh flex-col bg-stone-50">
      <SkipLink />
      <header className="sticky top-0 z-30 border-b border-stone-200/70 bg-white/85 backdrop-blur-md">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between gap-3 px-4 sm:px-8">
          <Link to={paths.home.getHref()} className="-ml-1 rounded-lg p-1">
            <BrandLockup />
          </Link>
          <p className="hidden text-sm font-medium text-stone-500 lg:block">Your account</p>
          <button
            type="button"
            onClick={() => setMenuOpen(true)}
            aria-label="Open account menu"
            aria-haspopup="dialog"
            aria-expanded={isMenuOpen}
            className="-mr-2 inline-flex size-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 lg:hidden"
          >
            <Menu className="size-5.5" strokeWidth={1.75} aria-hidden="true" />
          </button>
        </div>
      </header>
      {signedOut ? (
        <AccountSkeleton />
      ) : (
        <RequireUser fallback={<AccountSkeleton />}>
          <div className="mx-auto grid w-full max-w-6xl flex-1 gap-10 px-5 py-8 sm:px-8 sm:py-12 lg:grid-cols-[16rem_1fr]">
            <aside className="hidden lg:block">
              <div className="sticky top-28 rounded-2xl bg-white p-3 pt-5 shadow-sm ring-1 ring-stone-200/70">
                <AccountMenu />
              </div>
            </aside>
            <AccountMain />
          </div>
          <Drawer open={isMenuOpen} onClose={() => setMenuOpen(false)} side="right" aria-label="Account menu">
            <DrawerHeader onClose={() => setMenuOpen(false)} closeLabel="Close account menu">
              <span className="text-sm font-semibold text-stone-950">Your account</span>
            </DrawerHeader>
            <div className="flex-1 overflow-y-auto px-3 py-5">
              <AccountMenu onNavigate={() => setMenuOpen(false)} />
            </div>
          </Drawer>
        </RequireUser>
      )}
    </div>
  );
}

/** The heading row every account page starts with. */
export function AccountPageHeader({ title, description }: { title: string; description?: string }) {
  return (
    <div className="mb-8">
      <h1 className="text-2xl font-semibold tracking-tight text-stone-950 sm:text-3xl">{title}</h1>
      {description ? <p className="mt-2 text-[15px] text-stone-500">{description}</p> : null}
    </div>
  );
}
