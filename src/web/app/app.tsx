import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { markHydrated } from '../lib/after-hydration';
import { queryClient } from '../lib/query-client';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

/**
 * Browser-only state (the persisted cart and checkout) is read once the server's HTML has
 * hydrated. This sits before the routes so its effect runs before any page's effects, which then
 * see the stored state (React runs a parent's children's effects in order).
 */
function HydrationMark() {
  useEffect(markHydrated, []);
  return null;
}

/**
 * The browser's app. React Router in its declarative mode: our pages load their data with
 * TanStack Query, so the data router's loaders would go unused while its code (about 18 KB
 * gzipped) would load on every first visit (docs/decisions/012-declarative-router.md).
 */
export function App() {
  return (
    <AppProvider queryClient={queryClient}>
      <HydrationMark />
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
