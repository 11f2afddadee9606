import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import {
  AccountErrorBoundary,
  AdminErrorBoundary,
  RootErrorBoundary,
  StorefrontErrorBoundary,
} from './error-boundaries';
import { AppRoot, AppLoading } from './root';
import { StorefrontLayout } from './layouts/storefront-layout';

/**
 * The route table: exactly the paths of src/common/routes.ts (see config/paths.ts), plus a 404 for
 * everything else. Every page is its own lazy chunk; the storefront frame ships with the entry.
 * Each area has an error boundary inside its layout, so a failing page keeps the navigation.
 */
const storefrontPages: RouteObject[] = [
  { path: paths.home.path, lazy: () => import('./routes/storefront/home') },
  { path: paths.about.path, lazy: () => import('./routes/storefront/about') },
  { path: paths.faq.path, lazy: () => import('./routes/storefront/faq') },
  { path: paths.shipping.path, lazy: () => import('./routes/storefront/shipping') },
  { path: paths.terms.path, lazy: () => import('./routes/storefront/terms') },
  { path: paths.privacy.path, lazy: () => import('./routes/storefront/privacy') },
  { path: paths.login.path, lazy: () => import('./routes/storefront/login') },
  { path: paths.howToBuy.path, lazy: () => import('./routes/storefront/how-to-buy') },
  { path: paths.success.path, lazy: () => import('./routes/storefront/success') },
  { path: paths.product.path, lazy: () => import('./routes/storefront/product') },
  { path: '*', lazy: () => import('./routes/storefront/not-found') },
];

const accountPages: RouteObject[] = [
  { index: true, element: <Navigate to={paths.profile.orders.getHref()} replace /> },
  { path: paths.profile.orders.path, lazy: () => import('./routes/account/orders') },
  { path: paths.profile.messages.path, lazy: () => import('./routes/account/messages') },
  { path: paths.profile.wallet.path, lazy: () => import('./routes/account/wallet') },
  { path: paths.profile.settings.path, lazy: () => import('./routes/account/settings') },
  { path: '*', lazy: () => import('./routes/account/not-found') },
];

const adminPages: RouteObject[] = [
  { index: true, lazy: () => import('./routes/admin/dashboard') },
  { path: paths.admin.products.path, lazy: () => import('./routes/admin/products') },
  { path: paths.admin.productAdd.path, lazy: () => import('./routes/admin/product-add') },
  { path: paths.admin.productEdit.path, lazy: () => import('./routes/admin/product-edit') },
  { path: paths.admin.orders.path, lazy: () => import('./routes/admin/orders') },
  { path: paths.admin.customers.path, lazy: () => import('./routes/admin/customers') },
  { path: paths.admin.messages.path, lazy: () => import('./routes/admin/messages') },
  { path: paths.admin.analytics.path, lazy: () => import('./routes/admin/analytics') },
  { path: paths.admin.audit.path, lazy: () => import('./routes/admin/audit') },
  { path: paths.admin.airdrops.path, lazy: () => import('./routes/admin/airdrops') },
  { path: paths.admin.settings.path, lazy: () => import('./routes/admin/settings') },
  { path: '*', lazy: () => import('./routes/admin/not-found') },
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
        children: [{ ErrorBoundary: StorefrontErrorBoundary, children: storefrontPages }],
      },
      {
        id: 'account',
        path: paths.profile.root.path,
        lazy: () => import('./routes/account/layout'),
        ErrorBoundary: AccountErrorBoundary,
        children: [{ ErrorBoundary: AccountErrorBoundary, children: accountPages }],
      },
      {
        id: 'admin-login',
        path: paths.admin.login.path,
        lazy: () => import('./routes/admin/login'),
        ErrorBoundary: AdminErrorBoundary,
      },
      {
        id: 'admin',
        path: paths.admin.dashboard.path,
        lazy: () => import('./routes/admin/layout'),
        ErrorBoundary: AdminErrorBoundary,
        children: [{ ErrorBoundary: AdminErrorBoundary, children: adminPages }],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
