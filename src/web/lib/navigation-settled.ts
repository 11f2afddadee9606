import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Most a caller waits for a navigation to show its page (a navigation replaced by another never does). */
const SETTLE_TIMEOUT_MS = 10_000;

let shownPath: string | null = null;
let waiters: { path: string; resolve: () => void }[] = [];

/**
 * Mounted once inside the router (app/root.tsx): marks each page as shown once React has committed
 * it. Navigations run in a transition, so the page a shopper leaves stays mounted until the next
 * one is ready.
 */
export function useMarkShownPage(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    shownPath = pathname;
    const settled = waiters.filter((w) => w.path === pathname);
    waiters = waiters.filter((w) => w.path !== pathname);
    for (const waiter of settled) waiter.resolve();
  }, [pathname]);
}

/**
 * navigate() that answers once the new page is on screen and the one left is unmounted: for work
 * that must not happen while the old page still runs (signing out clears the cache its queries
 * would otherwise fetch again, without a session).
 */
export function useNavigateSettled(): (pathname: string) => Promise<void> {
  const navigate = useNavigate();
  return useCallback(
    (pathname: string) => {
      if (shownPath === pathname) return Promise.resolve();
      const shown = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SETTLE_TIMEOUT_MS);
        waiters.push({
          path: pathname,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
      void navigate(pathname);
      return shown;
    },
    [navigate],
  );
}
