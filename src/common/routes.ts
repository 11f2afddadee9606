/** A guest order's page: the order mail's signed link (its HTML holds the order's private details). */
export const GUEST_ORDER_ROUTE = '/orders/:id';

/**
 * The spec's route table (plus /privacy, shareable product pages and the audit panel): the pages
 * the web app renders; anything else that is not a file or an API route gets its 404 page with a
 * 404 status. The web app's route table (src/web/app/routes.ts) declares exactly these paths and
 * FORM_POST_ROUTES (routes.test.ts there), and web/config/paths.ts builds their links.
 */
export const SPA_ROUTE_PATTERNS: readonly string[] = [
  '/',
  '/about',
  '/faq',
  '/shipping',
  '/terms',
  '/privacy',
  '/contact',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/confirm-email',
  '/profile',
  '/profile/*',
  '/how-to-buy',
  '/success',
  '/products/:id',
  GUEST_ORDER_ROUTE,
  '/explorer/tx/:signature',
  '/admin/login',
  '/admin',
  '/admin/products',
  '/admin/products/add',
  '/admin/products/edit/:id',
  '/admin/orders',
  '/admin/customers',
  '/admin/messages',
  '/admin/analytics',
  '/admin/audit',
  '/admin/airdrops',
  '/admin/settings',
  '/admin/outbox',
];

/**
 * Paths the web app answers only as form posts (a press before its code arrives, or without
 * JavaScript): Sign Out and the consent prompts. Opened as a page, each redirects to the shop.
 */
export const FORM_POST_ROUTES: readonly string[] = ['/sign-out', '/consent'];

function toRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((part) =>
      part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${body}/?$`);
}

const SPA_ROUTE_REGEXPS = SPA_ROUTE_PATTERNS.map(toRegExp);

export function isSpaRoute(pathname: string): boolean {
  return SPA_ROUTE_REGEXPS.some((re) => re.test(pathname));
}

/** Whether a path matches one route pattern of the table (`:param` one segment, `*` the rest). */
export function routeMatcher(pattern: string): (pathname: string) => boolean {
  const re = toRegExp(pattern);
  return (pathname) => re.test(pathname);
}
