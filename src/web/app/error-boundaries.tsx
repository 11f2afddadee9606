import { RotateCw } from 'lucide-react';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { PageTitle } from '../components/page-title';
import { Button, buttonClasses } from '../components/ui/button';
import { paths } from '../config/paths';
import { NotFoundContent } from './layouts/not-found-content';

type Area = 'storefront' | 'account' | 'admin' | 'app';

const back: Record<Area, { to: string; label: string }> = {
  storefront: { to: paths.home.getHref(), label: 'Back to Home' },
  account: { to: paths.profile.orders.getHref(), label: 'Back to your account' },
  admin: { to: paths.admin.dashboard.getHref(), label: 'Back to Dashboard' },
  app: { to: paths.home.getHref(), label: 'Back to Home' },
};

/** A deploy replaced the code chunks this tab was built with: a reload fixes it. */
function isStaleChunkError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
      error.message,
    )
  );
}

function AreaError({ area }: { area: Area }) {
  const error = useRouteError();
  const target = back[area];
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundContent backTo={target.to} backLabel={target.label} />;
  }
  const stale = isStaleChunkError(error);
  return (
    <section
      role="alert"
      className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-5 py-24 text-center"
    >
      <PageTitle title="Something went wrong" />
      <p className="text-sm font-semibold tracking-[0.2em] text-rose-600 uppercase">
        {stale ? 'New version available' : 'Unexpected error'}
      </p>
      <h1 className="mt-4 text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        Something went wrong
      </h1>
      <p className="mt-4 text-base leading-relaxed text-stone-500">
        {stale
          ? 'The shop was updated while this page was open. Reload to get the latest version.'
          : 'This part of the page could not be shown. Try again, and if it keeps happening, come back in a few minutes.'}
      </p>
      <div className="mt-10 flex flex-wrap items-center justify-center gap-3">
        <Button variant="secondary" size="lg" onClick={() => window.location.reload()}>
          <RotateCw className="size-4" aria-hidden="true" />
          Reload page
        </Button>
        <Link to={target.to} className={buttonClasses({ variant: 'outline', size: 'lg' })}>
          {target.label}
        </Link>
      </div>
    </section>
  );
}

export function StorefrontErrorBoundary() {
  return <AreaError area="storefront" />;
}

export function AccountErrorBoundary() {
  return <AreaError area="account" />;
}

export function AdminErrorBoundary() {
  return <AreaError area="admin" />;
}

/** Last resort, when a layout itself failed: no navigation around it. */
export function RootErrorBoundary() {
  return (
    <main className="flex min-h-dvh flex-col">
      <AreaError area="app" />
    </main>
  );
}
