import { RotateCw } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PageTitle } from '../components/page-title';
import { Button, buttonClasses } from '../components/ui/button';
import { paths } from '../config/paths';

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

export function AreaError({ area, error }: { area: Area; error: unknown }) {
  const target = back[area];
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

interface BoundaryProps {
  area: Area;
  /** The page's path: the error is forgotten when the shopper goes elsewhere. */
  resetKey: string;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { error: unknown; failedAt: string | null }> {
  override state = { error: null as unknown, failedAt: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; failedAt: string | null }) {
    if (state.error === null) return null;
    if (state.failedAt === null) return { failedAt: props.resetKey };
    return state.failedAt === props.resetKey ? null : { error: null, failedAt: null };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    const content = <AreaError area={this.props.area} error={this.state.error} />;
    return this.props.area === 'app' ? <main className="flex min-h-dvh flex-col">{content}</main> : content;
  }
}

/**
 * What an area shows when a page (or, for 'app', a layout) fails to render or its code fails to
 * load: the navigation around it stays, and going elsewhere clears it.
 */
export function AreaErrorBoundary({ area, children }: { area: Area; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <Boundary area={area} resetKey={pathname}>
      {children}
    </Boundary>
  );
}
