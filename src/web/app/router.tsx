import { matchRoutes, Navigate, Outlet, useRoutes, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { AreaErrorBoundary } from './error-boundaries';
import { AppRoot } from './root';
import { StorefrontLayout } from './layouts/storefront-layout';
import { pageHandle, type PageHandle } from './page-data';
import { hasPageFile, LazyPage, loadPage } from './page-modules';
import { shopInfoQueryOptions } from '../lib/shop-info';

/** Page routes whose id is not their file (see `page`). */
const pageFileOf = new Map<string, string>();

/** The file under ./routes a route shows: its id, unless `page` was given another one. */
function fileOfRoute(id: string): string | undefined {
  return pageFileOf.get(id) ?? (hasPageFile(id) ? id : undefined);
}

/**
 * A page under ./routes (`storefront/home`), which the server preloads with the first byte (see
 * entry-server.tsx). Its route id is its file, or `id` where two routes show the same file.
 */
function page(file: string, id = file): Pick<RouteObject, 'id' | 'element'> {
  if (!hasPageFile(file)) throw new Error(`No route module ./routes/${file}.tsx`);
  if (id !== file) pageFileOf.set(id, file);
  return { id, element: <LazyPage file={file} /> };
}

/** The pages of an area, inside its error boundary (a failing page keeps the area's navigation). */
function area(name: 'storefront' | 'account' | 'admin', children: RouteObject[]): RouteObject {
  return {
    element: (
      <AreaErrorBoundary area={name}>
        <Outlet />
      </AreaErrorBoundary>
    ),
    children,
  };
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
  // The landing page with that product's modal open: the same file, so the page stays mounted
  // (scroll, filters, loaded grid) when a card opens or closes.
  { path: paths.product.path, ...page('storefront/home', 'storefront/product') },
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
    element: <AppRoot />,
    children: [
      {
        id: 'storefront',
        element: <StorefrontLayout />,
        // Every storefront page shows the shop's contact address (footer).
        handle: {
          prefetch: (queryClient) => queryClient.prefetchQuery(shopInfoQueryOptions()),
        } satisfies PageHandle,
        children: [area('storefront', storefrontPages)],
      },
      {
        path: paths.profile.root.path,
        element: (
          <AreaErrorBoundary area="account">
            <LazyPage file="account/layout" />
          </AreaErrorBoundary>
        ),
        id: 'account/layout',
        children: [area('account', accountPages)],
      },
      {
        path: paths.admin.login.path,
        id: 'admin/login',
        element: (
          <AreaErrorBoundary area="admin">
            <LazyPage file="admin/login" />
          </AreaErrorBoundary>
        ),
      },
      {
        path: paths.admin.dashboard.path,
        id: 'admin/layout',
        element: (
          <AreaErrorBoundary area="admin">
            <LazyPage file="admin/layout" />
          </AreaErrorBoundary>
        ),
        children: [area('admin', adminPages)],
      },
    ],
  },
];

/** The app's pages for the current location (inside a BrowserRouter or, on the server, a StaticRouter). */
export function AppRoutes() {
  return useRoutes(routes);
}

/** The route ids a URL matches, outermost first. */
export function matchRouteIds(pathname: string): string[] {
  return (matchRoutes(routes, pathname) ?? []).flatMap((m) => (m.route.id ? [m.route.id] : []));
}

/** The files under ./routes of the pages a URL matches, outermost first (a layout, then its page). */
export function matchPageFiles(pathname: string): string[] {
  return matchRouteIds(pathname).flatMap((id) => fileOfRoute(id) ?? []);
}

/**
 * Loads the page modules a URL needs, so the first render (hydration, or the server's) has them
 * all; answers what each matched route prefetches, with its params.
 */
export async function loadRouteModules(
  pathname: string,
): Promise<{ handle: PageHandle | undefined; params: Record<string, string | undefined> }[]> {
  const matches = matchRoutes(routes, pathname) ?? [];
  return Promise.all(
    matches.map(async ({ route, params }) => {
      const file = route.id ? fileOfRoute(route.id) : undefined;
      const handle = file ? (await loadPage(file)).handle : pageHandle(route.handle);
      return { handle, params };
    }),
  );
}
