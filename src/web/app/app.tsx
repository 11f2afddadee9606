import { RouterProvider } from 'react-router/dom';
import { meQueryOptions } from '../lib/current-user';
import { queryClient } from '../lib/query-client';
import { AppProvider } from './provider';
import { createRouter } from './router';

// The current user is loaded once at start, in parallel with the first page's code.
void queryClient.prefetchQuery(meQueryOptions());

const router = createRouter();

export function App() {
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
