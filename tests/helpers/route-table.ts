import { randomBytes, randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import type { AppEnv } from '#server/lib/hono-env';
import { createOrder, SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import type { TestApp, TestClient } from './test-app';
import { signUpAndIn } from './sign-up';

/**
 * The shop's routes as the router has them (Hono's `app.routes`), for the hardening tests that are
 * generated from it: a route added to the app is covered without anyone listing it. The sample
 * bodies below are the one hand-kept part, and `routesWithoutSample` makes a test fail when a
 * mutating route has none.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const MUTATING_METHODS: readonly Method[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

export interface RouteEntry {
  method: Method;
  /** As declared, with its `:params`. */
  path: string;
  /** "METHOD path": the key of SAMPLES. */
  key: string;
  mutating: boolean;
}

/**
 * Every API route (under /api, and the local ledger's /local-chain when it runs), once per method
 * and path. Hono lists each handler of a route (validators, guards) and every `use` middleware as
 * its own entry; middleware shows as method ALL, and the only ALL handlers with a path of their own
 * are middleware or the /api/* JSON 404, so those are left out.
 */
export function routeTable(app: Hono<AppEnv>): RouteEntry[] {
  const seen = new Map<string, RouteEntry>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || r.path.includes('*')) continue;
    if (!r.path.startsWith('/api/') && r.path !== '/local-chain') continue;
    const method = r.method as Method;
    const key = `${method} ${r.path}`;
    if (!seen.has(key))
      seen.set(key, { method, path: r.path, key, mutating: MUTATING_METHODS.includes(method) });
  }
  return [...seen.values()].sort((a, b) => a.key.localeCompare(b.key));
}

export type Role = 'anonymous' | 'customer' | 'admin';

/** Real rows the tests point path params and bodies at (built by `createFixtures`). */
export interface Fixtures {
  customer: TestClient;
  customerId: string;
  customerEmail: string;
  customerPassword: string;
  admin: TestClient;
  adminId: string;
  anonymous: TestClient;
  productId: string;
  /** An order of the customer's (pending, card). */
  orderId: string;
  /** A ticket the customer wrote (the admin's messages). */
  messageId: string;
  /** A pending checkout payment's reference. */
  paymentReference: string;
  /** A Solana address for wallet and reward bodies. */
  walletAddress: string;
}

export interface RouteSample {
  /** Who calls the route legitimately (the mass-assignment test signs in as them). */
  who: Role;
  /** A valid body; undefined for a bodiless write. */
  body?: (fx: Fixtures) => unknown;
  /**
   * Why the route skips the Origin check of the CSRF rules (it is in app.ts's CSRF_EXEMPT); the
   * content-type rule still holds for it.
   */
  originExempt?: string;
  /** Outside /api: no cookie is read, so neither CSRF rule applies. Says why. */
  noCookieAuthority?: string;
  /** The route ends the client's session (or all others): tests give it a client of its own. */
  endsSession?: boolean;
}

/** An image the product samples name; createFixtures stores it. */
const SAMPLE_IMAGE = 'products/1700000000000-hardening-800.webp';

const productBody = () => ({
  title: 'Hardening Leggings',
  description: 'High-rise, barely worn.',
  brand: 'Aelo Test',
  priceCents: 4800,
  originalPriceCents: null,
  images: [SAMPLE_IMAGE],
  quantity: 7,
  sizes: ['M'],
  colors: ['Black'],
  sizeGuide: null,
  gender: 'womens',
  category: 'womens-leggings',
  shippingWeight: 0.5,
});

/** A valid sample body for every mutating route, keyed "METHOD path". */
export const SAMPLES: Record<string, RouteSample> = {
  'PUT /api/account/settings': {
    who: 'customer',
    body: () => ({ ...SHIPPING_INFO, notifications: { orderUpdates: true, promotions: false } }),
  },
  // Bodiless, as the admin page sends it: a JSON-declared empty body reads as {}.
  'POST /api/admin/airdrops/process': { who: 'admin' },
  'PATCH /api/admin/messages/:id/priority': { who: 'admin', body: () => ({ priority: 'high' }) },
  'PATCH /api/admin/messages/:id/status': { who: 'admin', body: () => ({ status: 'read' }) },
  'POST /api/admin/messages/:id/replies': {
    who: 'admin',
    body: () => ({ body: 'Thanks for asking: it runs true to size.' }),
  },
  // Bodiless (Send again); a random id: no failed mail, 404.
  'POST /api/admin/outbox/:id/resend': { who: 'admin' },
  'DELETE /api/admin/orders/:id': { who: 'admin' },
  'PATCH /api/admin/orders/:id': {
    who: 'admin',
    body: () => ({ status: 'shipped', trackingNumber: '9400100000000000000000' }),
  },
  'POST /api/admin/orders/:id/refunds': {
    who: 'admin',
    body: () => ({ amountCents: 100, reason: 'Damaged in transit' }),
  },
  'POST /api/admin/products': { who: 'admin', body: productBody },
  'DELETE /api/admin/products/:id': { who: 'admin' },
  'PATCH /api/admin/products/:id': { who: 'admin', body: () => ({ priceCents: 5100, quantity: 4 }) },
  'PUT /api/admin/products/:id': { who: 'admin', body: () => ({ ...productBody(), priceCents: 5200 }) },
  'DELETE /api/admin/settings/:provider/:keyName': { who: 'admin' },
  'PUT /api/admin/settings/:provider/:keyName': {
    who: 'admin',
    body: () => ({ value: 'sk_test_hardening' }),
  },
  'POST /api/auth/change-email': {
    who: 'customer',
    body: (fx) => ({
      newEmail: `moved-${randomBytes(3).toString('hex')}@example.com`,
      password: fx.customerPassword,
    }),
  },
  'POST /api/auth/change-email/confirm': {
    who: 'customer',
    body: (fx) => ({ user: fx.customerId, email: 'elsewhere@example.com', token: 'not-a-real-token' }),
  },
  'POST /api/auth/email-verification/resend': { who: 'customer' },
  'POST /api/auth/forgot-password': { who: 'anonymous', body: (fx) => ({ email: fx.customerEmail }) },
  'POST /api/auth/password': {
    who: 'customer',
    body: (fx) => ({ currentPassword: fx.customerPassword, newPassword: 'a-changed-password-9' }),
    endsSession: true,
  },
  'POST /api/auth/reset-password': {
    who: 'anonymous',
    body: () => ({ token: 'not-a-real-token', password: 'a-new-password-123' }),
  },
  'DELETE /api/auth/sessions/:id': { who: 'customer' },
  'POST /api/auth/sessions/revoke-others': { who: 'customer', endsSession: true },
  'POST /api/auth/sign-in/email': {
    who: 'anonymous',
    body: (fx) => ({ email: fx.customerEmail, password: fx.customerPassword }),
  },
  'POST /api/auth/sign-out': { who: 'customer', endsSession: true },
  'POST /api/auth/sign-up/email': {
    who: 'anonymous',
    body: () => ({ email: `new-${randomBytes(4).toString('hex')}@example.com`, password: 'customer-pass-1' }),
  },
  'POST /api/auth/two-factor/confirm': { who: 'customer', body: () => ({ code: '123456' }) },
  'POST /api/auth/two-factor/disable': { who: 'customer', body: (fx) => ({ password: fx.customerPassword }) },
  'POST /api/auth/two-factor/enable': { who: 'customer', body: () => ({ password: 'not-the-password-1' }) },
  'POST /api/auth/two-factor/verify': { who: 'anonymous', body: () => ({ code: '123456' }) },
  'POST /api/auth/verify-email': {
    who: 'anonymous',
    body: () => ({ token: 'not-a-real-token', mode: 'set', password: 'a-new-lantern-password-58' }),
  },
  'POST /api/contact': {
    who: 'anonymous',
    body: () => ({ name: 'Robin Guest', email: 'robin@example.com', message: 'Do you ship to Alaska?' }),
  },
  'POST /api/checkout': {
    who: 'customer',
    body: (fx) => ({
      items: [{ productId: fx.productId, size: 'M', color: 'Black', quantity: 1 }],
      shippingInfo: SHIPPING_INFO,
      // SOL on the local ledger: card needs Stripe keys (503 NOT_CONFIGURED without them).
      paymentMethod: 'sol',
    }),
  },
  'POST /api/payments/:reference/cancel': { who: 'anonymous' },
  'POST /api/rewards': { who: 'customer', body: (fx) => ({ walletAddress: fx.walletAddress }) },
  'POST /api/solana-pay/payments/:reference': {
    who: 'anonymous',
    body: (fx) => ({ account: fx.walletAddress }),
    originExempt:
      'Solana Pay wallets POST {account} from any origin (CORS *) and send no cookie: the payment reference is the capability, and the answer is a transaction the wallet still has to sign',
  },
  'POST /api/solana-pay/refunds/:id': {
    who: 'anonymous',
    body: (fx) => ({ account: fx.walletAddress }),
    originExempt:
      "Solana Pay wallets POST {account} from any origin (CORS *) and send no cookie: the refund's signed link token is the capability, and the answer is a transaction the shop wallet still has to sign",
  },
  'POST /api/solana-pay/token-purchases/:reference': {
    who: 'anonymous',
    body: (fx) => ({ account: fx.walletAddress }),
    originExempt:
      'Solana Pay wallets POST {account} from any origin (CORS *) and send no cookie: the purchase reference is the capability, and the answer is a transaction the wallet still has to sign',
  },
  'POST /api/tickets': {
    who: 'customer',
    body: () => ({ category: 'order', subject: 'Where is my order?', content: 'It has been a week.' }),
  },
  'POST /api/tickets/:id/replies': { who: 'customer', body: () => ({ body: 'One more detail.' }) },
  'POST /api/token-purchases': { who: 'anonymous', body: () => ({ amountUsd: '42.42' }) },
  'POST /api/tracking-info': { who: 'customer', body: () => ({ trackingNumber: '9400TEST0001' }) },
  'POST /api/uploads': { who: 'admin' },
  'DELETE /api/wallet': { who: 'customer' },
  'POST /api/wallet/challenge': { who: 'customer', body: (fx) => ({ address: fx.walletAddress }) },
  'POST /api/wallet/link': {
    who: 'customer',
    body: (fx) => ({
      address: fx.walletAddress,
      signedMessage: Buffer.from('not what the shop asked to sign').toString('base64'),
      signature: Buffer.alloc(64, 7).toString('base64'),
    }),
  },
  'POST /api/webhooks/stripe': {
    who: 'anonymous',
    body: () => ({ id: 'evt_hardening', type: 'checkout.session.completed', data: { object: {} } }),
    originExempt:
      "Stripe's servers post its events with no Origin and no cookie; the Stripe-Signature over the raw body is what authenticates them",
  },
  'POST /local-chain': {
    who: 'anonymous',
    body: () => ({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    noCookieAuthority:
      "the local ledger's JSON-RPC (local mode only) reads no cookie and no session: every change it makes is a transaction signed by its sender (or the local faucet), as on any Solana RPC",
  },
};

/** The mutating routes the router has and SAMPLES lacks (a new route must get a sample). */
export function routesWithoutSample(routes: readonly RouteEntry[]): string[] {
  return routes.filter((r) => r.mutating && !(r.key in SAMPLES)).map((r) => r.key);
}

/** Values for a route's path params: the fixtures' real rows, else a random value of the right shape. */
export function paramsFor(route: Pick<RouteEntry, 'path'>, fx: Fixtures): Record<string, string> {
  const p = route.path;
  const id = p.startsWith('/api/admin/products/')
    ? fx.productId
    : p.startsWith('/api/admin/orders/')
      ? fx.orderId
      : p.startsWith('/api/admin/messages/') || p.startsWith('/api/tickets/')
        ? fx.messageId
        : randomUUID();
  return {
    id,
    reference:
      p.startsWith('/api/payments/') || p.startsWith('/api/solana-pay/payments/')
        ? fx.paymentReference
        : randomBytes(16).toString('hex'),
    signature: '5'.repeat(88),
    provider: 'stripe',
    keyName: 'secret_key',
  };
}

/** The route's path with its params filled (`values` win over `paramsFor`). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? randomUUID()),
  );
}

/**
 * Signs a customer up and an admin in, and makes the rows the routes' params point at: a product,
 * an order and a ticket of the customer's, and a pending card payment.
 */
export async function createFixtures(t: TestApp, tag = randomBytes(4).toString('hex')): Promise<Fixtures> {
  const db = t.deps.database.db;
  const customerEmail = `hardening-${tag}@example.com`;
  const customerPassword = 'customer-pass-1';
  const customer = t.client();
  const signUp = await signUpAndIn(customer, { email: customerEmail, password: customerPassword });
  if (signUp.status !== 200) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
  const customerId = ((await signUp.json()) as { user: { id: string } }).user.id;

  const adminEmail = `hardening-admin-${tag}@example.com`;
  const created = await t.deps.auth.createUser({
    email: adminEmail,
    password: 'admin-pass-1234',
    role: 'admin',
  });
  const admin = t.client();
  const signIn = await admin.post('/api/auth/sign-in/email', {
    email: adminEmail,
    password: 'admin-pass-1234',
  });
  if (signIn.status !== 200) throw new Error(`admin sign-in: ${signIn.status} ${await signIn.text()}`);
  await signIn.body?.cancel();

  await t.deps.storage.put(SAMPLE_IMAGE, new Uint8Array([0x52, 0x49, 0x46, 0x46]), 'image/webp');
  const product = await createProduct(db, {
    quantity: 50,
    sizes: ['M'],
    colors: ['Black'],
    sizeGuide: { waist: ['28-29'] },
  });
  const order = await createOrder(db, { userId: customerId, email: customerEmail });
  const ticket = await customer.post('/api/tickets', {
    category: 'general',
    subject: 'Hello',
    content: 'A question.',
  });
  if (ticket.status !== 201) throw new Error(`ticket: ${ticket.status} ${await ticket.text()}`);
  const messageId = ((await ticket.json()) as { id: string }).id;
  const checkout = await t.client().post('/api/checkout', {
    items: [{ productId: product.id, size: 'M', color: 'Black', quantity: 1 }],
    shippingInfo: SHIPPING_INFO,
    paymentMethod: 'sol',
  });
  if (checkout.status !== 201) throw new Error(`checkout: ${checkout.status} ${await checkout.text()}`);
  const paymentReference = ((await checkout.json()) as { reference: string }).reference;

  return {
    customer,
    customerId,
    customerEmail,
    customerPassword,
    admin,
    adminId: created.id,
    anonymous: t.client(),
    productId: product.id,
    orderId: order.id,
    messageId,
    paymentReference,
    walletAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  };
}

/** Signs a fresh customer up (for routes that end the session they are called with). */
export async function freshCustomer(t: TestApp): Promise<TestClient> {
  const client = t.client();
  const res = await signUpAndIn(client, {
    email: `hardening-fresh-${randomBytes(4).toString('hex')}@example.com`,
    password: 'customer-pass-1',
  });
  if (res.status !== 200) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  await res.body?.cancel();
  return client;
}

/** The client a role maps to. */
export function clientFor(fx: Fixtures, who: Role): TestClient {
  return who === 'admin' ? fx.admin : who === 'customer' ? fx.customer : fx.anonymous;
}
