import {
  createBrowserRouter,
  matchRoutes,
  Navigate,
  type HydrationState,
  type RouteObject,
} from 'react-router';
import { paths } from '../config/paths';
import {
  AccountErrorBoundary,
  AdminErrorBoundary,
  RootErrorBoundary,
  StorefrontErrorBoundary,
} from './error-boundaries';
import { AppRoot, AppLoading } from './root';
import { StorefrontLayout } from './layouts/storefront-layout';
import type { PageHandle } from './page-data';
import { shopInfoQueryOptions } from '../lib/shop-info';

type LazyRoute = Extract<RouteObject['lazy'], () => unknown>;
const pageModules = import.meta.glob<Awaited<ReturnType<LazyRoute>>>('./routes/**/*.tsx');

/**
 * A lazily loaded page module under ./routes: its route id is its file (`storefront/home`), which
 * the server uses to preload that page's chunks with the first byte (see entry-server.tsx).
 */
function page(file: string): Pick<RouteObject, 'id' | 'lazy'> {
  const load = pageModules[`./routes/${file}.tsx`];
  if (!load) throw new Error(`No route module ./routes/${file}.tsx`);
  return { id: file, lazy: load };
}

/**
 * The route table: exactly the paths of src/common/routes.ts (see config/paths.ts), plus a 404 for
 * everything else. Every page is its own lazy chunk; the storefront frame ships with the entry.
 * Each area has an error boundary inside its layout, so a failing page keeps the navigation.
 */
const storefrontPages: RouteObject[] = [
  { path: paths.home.path, ...page('storefront/home') },
  { path: paths.about.path, ...page('storefront/about') },
  { path: paths.faq.path, ...page('storefront/faq') },
  { path: paths.shipping.path, ...page('storefront/shipping') },
  { path: paths.terms.path, ...page('storefront/terms') },
  { path: paths.privacy.path, ...page('storefront/privacy') },
  { path: paths.login.path, ...page('storefront/login') },
  { path: paths.forgotPassword.path, ...page('storefront/forgot-password') },
  { path: paths.resetPassword.path, ...page('storefront/reset-password') },
  { path: paths.verifyEmail.path, ...page('storefront/verify-email') },
  { path: paths.confirmEmail.path, ...page('storefront/confirm-email') },
  { path: paths.howToBuy.path, ...page('storefront/how-to-buy') },
  { path: paths.success.path, ...page('storefront/success') },
  { path: paths.product.path, ...page('storefront/product') },
  { path: paths.guestOrder.path, ...page('storefront/guest-order') },
  { path: paths.explorerTx.path, ...page('storefront/explorer-tx') },
  { path: '*', ...page('storefront/not-found') },
];

const accountPages: RouteObject[] = [
  { index: true, element: <Navigate to={paths.profile.orders.getHref()} replace /> },
  { path: paths.profile.orders.path, ...page('account/orders') },
  { path: paths.profile.messages.path, ...page('account/messages') },
  { path: paths.profile.wallet.path, ...page('account/wallet') },
  { path: paths.profile.settings.path, ...page('account/settings') },
  { path: '*', ...page('account/not-found') },
];

const adminPages: RouteObject[] = [
  { index: true, ...page('admin/dashboard') },
  { path: paths.admin.products.path, ...page('admin/products') },
  { path: paths.admin.productAdd.path, ...page('admin/product-add') },
  { path: paths.admin.productEdit.path, ...page('admin/product-edit') },
  { path: paths.admin.orders.path, ...page('admin/orders') },
  { path: paths.admin.customers.path, ...page('admin/customers') },
  { path: paths.admin.messages.path, ...page('admin/messages') },
  { path: paths.admin.analytics.path, ...page('admin/analytics') },
  { path: paths.admin.audit.path, ...page('admin/audit') },
  { path: paths.admin.airdrops.path, ...page('admin/airdrops') },
  { path: paths.admin.settings.path, ...page('admin/settings') },
  { path: '*', ...page('admin/not-found') },
];

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: AppRoot,
    HydrateFallback: AppLoading,
    ErrorBoundary: RootErrorBoundary,
    children: [
      {
        id: 'storefront',
        Component: StorefrontLayout,
        // Every storefront page shows the shop's contact address (footer).
        handle: {
          prefetch: (queryClient) => queryClient.prefetchQuery(shopInfoQueryOptions()),
        } satisfies PageHandle,
        children: [{ ErrorBoundary: StorefrontErrorBoundary, children: storefrontPages }],
      },
      {
        path: paths.profile.root.path,
        ...page('account/layout'),
        ErrorBoundary: AccountErrorBoundary,
        children: [{ ErrorBoundary: AccountErrorBoundary, children: accountPages }],
      },
      {
        path: paths.admin.login.path,
        ...page('admin/login'),
        ErrorBoundary: AdminErrorBoundary,
      },
      {
        path: paths.admin.dashboard.path,
        ...page('admin/layout'),
        ErrorBoundary: AdminErrorBoundary,
        children: [{ ErrorBoundary: AdminErrorBoundary, children: adminPages }],
      },
    ],
  },
];

/** The browser's router; `hydrationData` when the page was rendered on the server. */
export function createRouter(hydrationData?: HydrationState) {
  return createBrowserRouter(routes, hydrationData ? { hydrationData } : {});
}

/** Loads the page modules a URL needs before hydration (the server rendered them already). */
export async function loadRouteModules(url: string): Promise<void> {
  const matches = matchRoutes(routes, url) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}
