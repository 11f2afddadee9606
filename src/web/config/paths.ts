/**
 * Every URL of the web app. The router declares exactly these paths (the same list the server
 * serves the SPA for: src/common/routes.ts); links use the href helpers, never string literals.
 */
const fixed = <P extends string>(path: P) => ({ path, getHref: () => path });

export type LandingSection = 'shop' | 'rewards' | 'ecosystem';

export const paths = {
  home: {
    path: '/',
    getHref: (section?: LandingSection) => (section ? `/#${section}` : '/'),
  },
  about: fixed('/about'),
  faq: fixed('/faq'),
  shipping: fixed('/shipping'),
  terms: fixed('/terms'),
  privacy: fixed('/privacy'),
  contact: fixed('/contact'),
  login: fixed('/login'),
  forgotPassword: fixed('/forgot-password'),
  resetPassword: fixed('/reset-password'),
  verifyEmail: fixed('/verify-email'),
  confirmEmail: fixed('/confirm-email'),
  howToBuy: fixed('/how-to-buy'),
  success: {
    path: '/success',
    getHref: (reference?: string) =>
      reference ? `/success?reference=${encodeURIComponent(reference)}` : '/success',
  },
  explorerTx: {
    path: '/explorer/tx/:signature',
    getHref: (signature: string) => `/explorer/tx/${encodeURIComponent(signature)}`,
  },
  guestOrder: {
    path: '/orders/:id',
    getHref: (id: string, token: string) =>
      `/orders/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`,
  },
  product: {
    path: '/products/:id',
    getHref: (id: string) => `/products/${encodeURIComponent(id)}`,
  },
  profile: {
    root: fixed('/profile'),
    orders: fixed('/profile/orders'),
    messages: fixed('/profile/messages'),
    wallet: fixed('/profile/wallet'),
    settings: fixed('/profile/settings'),
  },
  admin: {
    login: {
      path: '/admin/login',
      /** With why the visitor was sent there: the admin check's reason (features/auth RequireAdmin). */
      getHref: (reason?: string) =>
        reason ? `/admin/login?reason=${encodeURIComponent(reason)}` : '/admin/login',
    },
    dashboard: fixed('/admin'),
    products: fixed('/admin/products'),
    productAdd: fixed('/admin/products/add'),
    productEdit: {
      path: '/admin/products/edit/:id',
      getHref: (id: string) => `/admin/products/edit/${encodeURIComponent(id)}`,
    },
    orders: fixed('/admin/orders'),
    customers: fixed('/admin/customers'),
    messages: fixed('/admin/messages'),
    analytics: fixed('/admin/analytics'),
    audit: fixed('/admin/audit'),
    airdrops: fixed('/admin/airdrops'),
    settings: fixed('/admin/settings'),
    outbox: fixed('/admin/outbox'),
  },
} as const;

/** Links that leave the shop. */
export const externalLinks = {
  /** Where "Buy Token" in the mobile menu sends people: a Solana DEX (the token page is set by the token issue). */
  buyToken: 'https://jup.ag/',
} as const;

/** Every route path the router declares (used by the route-table test). */
export function allRoutePaths(): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    if ('path' in node && typeof node.path === 'string') out.push(node.path);
    else for (const child of Object.values(node)) walk(child);
  };
  walk(paths);
  return out;
}
