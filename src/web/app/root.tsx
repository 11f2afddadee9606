import { Outlet } from 'react-router';
import { useMarkShownPage } from '../lib/navigation-settled';
import { AreaErrorBoundary } from './error-boundaries';
import { usePageLoading } from './page-modules';
import { ScrollRestoration } from './scroll-restoration';

/** A thin bar at the top while the next page's code loads. */
function NavigationProgress() {
  if (!usePageLoading()) return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      className="fixed inset-x-0 top-0 z-[60] h-0.5 overflow-hidden bg-rose-100"
    >
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-rose-600" />
    </div>
  );
}

/**
 * Around every page: the progress bar, the last-resort error page (when a layout itself failed,
 * without navigation around it), and scroll positions kept per history entry.
 */
export function AppRoot() {
  useMarkShownPage();
  return (
    <>
      <NavigationProgress />
      {/* No Suspense boundary here: the page hydrates in the same pass as the frame (main.tsx loads
          its code first), and a navigation to a page still loading keeps the previous one. */}
      <AreaErrorBoundary area="app">
        <Outlet />
      </AreaErrorBoundary>
      <ScrollRestoration />
    </>
  );
}

/** Shown while the first page's code loads (a blank page with the brand colour bar). */
export function AppLoading() {
  return (
    <div aria-busy="true" className="fixed inset-x-0 top-0 h-0.5 overflow-hidden bg-rose-100">
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-rose-600" />
    </div>
  );
}
