import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/** A thin bar at the top while the next page's code or data loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
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

export function AppRoot() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
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
