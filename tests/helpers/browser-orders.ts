import { createTransfer, parseURL, type TransferRequestURL } from '@solana/pay';
import { Connection, Keypair, sendAndConfirmTransaction } from '@solana/web3.js';
import type { CheckoutResponse, PaymentStatusResponse } from '#common/schemas/checkout';
import type { Product } from '#common/schemas/product';
import type { ShopServer } from './browser';
import { outboxLink } from './outbox';
import { until } from './until';

/**
 * Pays a Solana Pay transfer request (the link a checkout or a token purchase shows) from the local
 * ledger's demo wallet, as a phone wallet reading the QR code would, and returns its signature.
 */
export async function payFromDemoWallet(server: ShopServer, paymentUrl: string): Promise<string> {
  const demo = (await (await fetch(`${server.baseUrl}/api/chain/demo-wallet`)).json()) as {
    secretKey: number[];
  };
  const payer = Keypair.fromSecretKey(Uint8Array.from(demo.secretKey));
  const connection = new Connection(`${server.baseUrl}/local-chain`, {
    commitment: 'confirmed',
    wsEndpoint: `${server.baseUrl}/local-chain`.replace('http', 'ws'),
  });
  const request = parseURL(paymentUrl) as TransferRequestURL;
  const tx = await createTransfer(connection, payer.publicKey, {
    recipient: request.recipient,
    amount: request.amount!,
    reference: request.reference!,
  });
  return sendAndConfirmTransaction(connection, tx, [payer], { commitment: 'confirmed' });
}

/** Waits until the server reads the checkout `reference` as paid; answers its status. */
export async function waitForPaid(server: ShopServer, reference: string): Promise<PaymentStatusResponse> {
  const status = await until(
    `payment ${reference} to be settled`,
    async () => {
      const res = await fetch(`${server.baseUrl}/api/payments/${reference}/status`);
      const current = (await res.json()) as PaymentStatusResponse;
      return current.status === 'pending' ? undefined : current;
    },
    20_000,
    200,
  );
  if (status.status === 'completed' && status.order_id) return status;
  throw new Error(`payment ${reference} is ${status.status}: ${JSON.stringify(status)}`);
}

/**
 * A guest checkout of one unit of `product`, shipped to `email` and paid in SOL on the local ledger
 * (the server's own checkout and payment watcher, nothing stubbed). Answers the paid order's id,
 * the payment's reference and its transaction signature.
 */
export async function placeSolOrder(
  server: ShopServer,
  product: Product,
  email: string,
): Promise<{ orderId: string; reference: string; signature: string }> {
  const origin = server.baseUrl;
  const res = await fetch(`${origin}/api/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      items: [
        {
          productId: product.id,
          size: product.sizes[0] ?? null,
          color: product.colors[0] ?? null,
          quantity: 1,
        },
      ],
      shippingInfo: {
        firstName: 'Maya',
        lastName: 'Lindqvist',
        email,
        phone: '4155550134',
        address: '220 Mission St',
        city: 'San Francisco',
        state: 'CA',
        zipCode: '94105',
        country: 'US',
      },
      paymentMethod: 'sol',
    }),
  });
  if (res.status !== 201) throw new Error(`POST /api/checkout answered ${res.status}: ${await res.text()}`);
  const checkout = (await res.json()) as CheckoutResponse;
  const signature = await payFromDemoWallet(server, checkout.crypto!.paymentUrl);
  const status = await waitForPaid(server, checkout.reference);
  return { orderId: status.order_id!, reference: checkout.reference, signature };
}

/** `name=value; ...` of a response's Set-Cookie headers, for a Cookie header. */
function cookieHeader(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function post(server: ShopServer, route: string, body: object, cookie?: string): Promise<Response> {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${route} answered ${res.status}: ${await res.text()}`);
  return res;
}

export interface SeededCustomer {
  email: string;
  password: string;
  /** The customer's session, as a Cookie header. */
  cookie: string;
  orderId: string;
  reference: string;
  signature: string;
  trackingNumber: string;
  /** The order mail's link to the guest order page (`/orders/:id?token=...`), as a path. */
  guestOrderPath: string;
}

/**
 * A customer with something on every account page, made through the shop's own API: signed up,
 * one order paid in SOL on the local ledger to their address, the email confirmed from the mailed
 * link with the account's password (so the order is theirs), the order shipped with a USPS tracking number by the admin, and
 * one support ticket. The customer is signed in again afterwards (`cookie`).
 */
export async function seedCustomerWithOrder(
  server: ShopServer,
  product: Product,
  prefix = 'customer',
): Promise<SeededCustomer> {
  const email = `${prefix}-${Date.now().toString(36)}@example.com`;
  const password = 'harbor-lights-71';
  await post(server, '/api/auth/sign-up/email', { email, password });
  const order = await placeSolOrder(server, product, email);
  const verify = await outboxLink(server.dataDir, email, /\/verify-email\?token=[^\s"<]+/);
  // The account's creator confirms with its password (the page's "I know this account's password").
  await post(server, '/api/auth/verify-email', {
    token: new URL(verify, server.baseUrl).searchParams.get('token'),
    mode: 'current',
    password,
  });
  const guestOrder = await outboxLink(server.dataDir, email, /\/orders\/[0-9a-f-]{36}\?token=[^\s"<]+/);

  const admin = cookieHeader(await post(server, '/api/auth/sign-in/email', server.admin));
  const trackingNumber = '9400111899223817000042';
  const shipped = await fetch(`${server.baseUrl}/api/admin/orders/${order.orderId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie: admin },
    body: JSON.stringify({ status: 'shipped', trackingNumber }),
  });
  if (!shipped.ok) throw new Error(`shipping the order answered ${shipped.status}: ${await shipped.text()}`);

  const cookie = cookieHeader(await post(server, '/api/auth/sign-in/email', { email, password }));
  await post(
    server,
    '/api/tickets',
    { category: 'general', subject: 'Where is my parcel?', content: 'It has not moved for two days.' },
    cookie,
  );
  return { email, password, cookie, ...order, trackingNumber, guestOrderPath: guestOrder };
}
