import { useEffect } from 'react';
import { RouterProvider } from 'react-router/dom';
import type { createRouter } from './router';
import { markHydrated } from '../lib/after-hydration';
import { queryClient } from '../lib/query-client';
import { AppProvider } from './provider';

/**
 * Browser-only state (the persisted cart and checkout) is read once the server's HTML has
 * hydrated. This sits before the router so its effect runs before any page's effects, which then
 * see the stored state (React runs a parent's children's effects in order).
 */
function HydrationMark() {
  useEffect(markHydrated, []);
  return null;
}

export function App({ router }: { router: ReturnType<typeof createRouter> }) {
  return (
    <AppProvider queryClient={queryClient}>
      <HydrationMark />
      <RouterProvider router={router} />
    </AppProvider>
  );
}
