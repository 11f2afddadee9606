import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the part of Stripe the shop uses, speaking Stripe's wire format so that
 * the real `stripe` SDK talks to it over HTTP (point it here with STRIPE_API_URL):
 *
 * - POST /v1/checkout/sessions              (form-encoded, bracket notation; Bearer sk_test_...)
 * - GET  /v1/checkout/sessions/:id
 * - POST /v1/checkout/sessions/:id/expire   (sends checkout.session.expired, like Stripe)
 * - GET  /c/pay/:id                         a tiny hosted page: total, 'Pay' button, 'Cancel' link
 * - POST /c/pay/:id                         completes the session, sends a signed
 *                                           checkout.session.completed, 303 to success_url
 * - POST /v1/refunds                        (form-encoded: payment_intent, amount, reason, metadata;
 *                                           the same Idempotency-Key answers the same refund; more
 *                                           than is left of the charge is refused as Stripe does)
 * - GET  /v1/refunds/:id
 * - GET  /v1/balance                        (read-only; the settings screen's check of a secret key)
 *
 * A request with a key the fake does not know (its own secretKey, or one added with
 * acceptSecretKey) is answered as Stripe does: 401 invalid_request_error 'Invalid API Key provided:
 * sk_test_****1234'. setUnreachable(true) makes it close every API connection without answering
 * (Stripe out of reach; the SDK retries a closed connection once even without retries).
 *
 * Events are signed with the SDK's own `stripe.webhooks.generateTestHeaderString` and delivered
 * to the webhook (a URL, or a handler such as the app's `app.request`) before the triggering
 * call answers, so tests are deterministic. Used by the integration tests and the browser tests.
 */

export interface FakeLineItem {
  name: string;
  images: string[];
  currency: string;
  unitAmount: number;
  quantity: number;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_details: { email: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: string;
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  url: string | null;
}

export interface FakeSessionRecord {
  session: FakeSession;
  lineItems: FakeLineItem[];
  /** The decoded form the SDK sent. */
  params: Record<string, unknown>;
}

export interface WebhookDelivery {
  type: string;
  eventId: string;
  /** The exact bytes delivered (send them again to replay the event). */
  payload: string;
  status: number;
  body: string;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string | null;
  charge: string;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  transfer_reversal: null;
}

export interface FakeRefundRecord {
  refund: FakeRefund;
  /** The Idempotency-Key it was created with. */
  idempotencyKey: string | undefined;
  /** The decoded form the SDK sent. */
  params: Record<string, unknown>;
}

export type WebhookTarget = string | ((request: Request) => Promise<Response>);

export interface FakeStripeServer {
  /** Base URL for STRIPE_API_URL (also the hosted page's origin). */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every session created, in order. */
  sessions: FakeSessionRecord[];
  session(id: string): FakeSessionRecord | undefined;
  lastSession(): FakeSessionRecord | undefined;
  deliveries: WebhookDelivery[];
  /** API requests seen (method, path, status). */
  requests: Array<{ method: string; path: string; status: number }>;
  setWebhook(target: WebhookTarget | undefined): void;
  /** Every refund created, in order (a request repeated with its Idempotency-Key creates none). */
  refunds: FakeRefundRecord[];
  /** What is left to refund of a paid session's payment intent (undefined: unknown intent). */
  refundableOf(paymentIntentId: string): number | undefined;
  /** The status new refunds get ('succeeded' by default; 'pending' as a bank that takes its time). */
  setRefundStatus(status: FakeRefund['status']): void;
  /** Moves a refund to a final status (a pending refund settling). */
  settleRefund(id: string, status?: FakeRefund['status']): void;
  /** Makes the next N session creations fail with this HTTP status (Stripe error body). */
  failNextCreate(status?: number, count?: number): void;
  /** Makes the fake also accept this secret key (as another Stripe account's key would be). */
  acceptSecretKey(key: string): void;
  /** While on, API requests get no answer: the connection is dropped (Stripe out of reach). */
  setUnreachable(unreachable: boolean): void;
  /** Pays the session (as the hosted page's Pay button) and delivers checkout.session.completed. */
  completeSession(id: string): Promise<WebhookDelivery | undefined>;
  /** Expires the session (as Stripe at expires_at) and delivers checkout.session.expired. */
  expireSession(id: string): Promise<WebhookDelivery | undefined>;
  /** An event object for a session, as Stripe would send it. */
  buildEvent(type: string, session: FakeSession): Record<string, unknown>;
  /** Signs and delivers any payload (object or raw string); `signature` overrides the header. */
  sendEvent(raw: unknown, options?: { signature?: string; secret?: string }): Promise<WebhookDelivery>;
  close(): Promise<void>;
}

/** The shop's settings that point it at `fake`: its keys and its API address, as environment variables. */
export function stripeEnv(fake: FakeStripeServer): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_URL: fake.url,
  };
}

export interface StartFakeStripeOptions {
  secretKey?: string;
  webhookSecret?: string;
  webhook?: WebhookTarget;
}

const API_VERSION = '2026-10-28.endive';

function randomId(prefix: string, length = 24): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return `${prefix}${out}`;
}

/** `a[b][0][c]=x` -> { a: { b: [ { c: 'x' } ] } }, as Stripe decodes the SDK's form bodies. */
export function decodeStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    const mapped = Object.fromEntries(keys.map((k) => [k, arrays(obj[k])]));
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => mapped[k]);
    }
    return mapped;
  };
  return arrays(root) as Record<string, unknown>;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
    readonly type = 'invalid_request_error',
    readonly code?: string,
  ) {
    super(message);
  }
  body() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        ...(this.code ? { code: this.code } : {}),
      },
    };
  }
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function requireInt(value: unknown, param: string, min = 0): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new StripeApiError(
      400,
      `Invalid integer: ${String(value)}`,
      param,
      'invalid_request_error',
      'parameter_invalid_integer',
    );
  }
  return n;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startFakeStripe(options: StartFakeStripeOptions = {}): Promise<FakeStripeServer> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  let webhook: WebhookTarget | undefined = options.webhook;
  const records = new Map<string, FakeSessionRecord>();
  const sessions: FakeSessionRecord[] = [];
  const idempotent = new Map<string, FakeSessionRecord>();
  /** Paid payment intents: what was charged and what is refunded so far. */
  const intents = new Map<string, { charge: string; amount: number; refunded: number; currency: string }>();
  const refunds: FakeRefundRecord[] = [];
  const refundsById = new Map<string, FakeRefundRecord>();
  const refundKeys = new Map<string, FakeRefundRecord>();
  let refundStatus: FakeRefund['status'] = 'succeeded';
  const deliveries: WebhookDelivery[] = [];
  const requests: FakeStripeServer['requests'] = [];
  let failures: { status: number; count: number } | undefined;
  const acceptedKeys = new Set<string>([secretKey]);
  let unreachable = false;
  let baseUrl = '';

  const buildEvent = (type: string, session: FakeSession) => ({
    id: randomId('evt_test_'),
    object: 'event',
    api_version: API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object: structuredClone(session) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });

  const sendEvent: FakeStripeServer['sendEvent'] = async (raw, sendOptions = {}) => {
    const payload = typeof raw === 'string' ? raw : JSON.stringify(raw, null, 2);
    let type = 'unknown';
    let eventId = '';
    try {
      const parsed = asRecord(JSON.parse(payload));
      type = asString(parsed.type) ?? 'unknown';
      eventId = asString(parsed.id) ?? '';
    } catch {
      // A raw body that is not JSON: delivered as is (tests of malformed events).
    }
    const signature =
      sendOptions.signature ??
      Stripe.webhooks.generateTestHeaderString({ payload, secret: sendOptions.secret ?? webhookSecret });
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': signature,
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    };
    if (!webhook) throw new Error('fake Stripe: no webhook target set');
    let res: Response;
    if (typeof webhook === 'string') {
      res = await fetch(webhook, { method: 'POST', headers, body: payload });
    } else {
      res = await webhook(
        new Request('http://127.0.0.1/api/webhooks/stripe', { method: 'POST', headers, body: payload }),
      );
    }
    const delivery = { type, eventId, payload, status: res.status, body: await res.text() };
    deliveries.push(delivery);
    return delivery;
  };

  const deliver = async (type: string, session: FakeSession) =>
    webhook ? sendEvent(buildEvent(type, session)) : undefined;

  const completeSession = async (id: string) => {
    const record = records.get(id);
    if (!record) throw new Error(`fake Stripe: no session ${id}`);
    if (record.session.status !== 'open')
      throw new Error(`fake Stripe: session ${id} is ${record.session.status}`);
    record.session.status = 'complete';
    record.session.payment_status = record.session.amount_total === 0 ? 'no_payment_required' : 'paid';
    record.session.payment_intent = randomId('pi_test_');
    intents.set(record.session.payment_intent, {
      charge: randomId('ch_test_'),
      amount: record.session.amount_total,
      refunded: 0,
      currency: record.session.currency,
    });
    record.session.customer_details = { email: record.session.customer_email };
    record.session.url = null;
    return deliver('checkout.session.completed', record.session);
  };

  const expireSession = async (id: string) => {
    const record = records.get(id);
    if (!record) throw new Error(`fake Stripe: no session ${id}`);
    if (record.session.status !== 'open') {
      throw new StripeApiError(
        400,
        `This Checkout Session is not in an expireable state.`,
        undefined,
        'invalid_request_error',
        'checkout_session_not_expireable',
      );
    }
    record.session.status = 'expired';
    record.session.url = null;
    return deliver('checkout.session.expired', record.session);
  };

  const createSession = (params: Record<string, unknown>): FakeSessionRecord => {
    const mode = asString(params.mode);
    if (mode !== 'payment') throw new StripeApiError(400, 'Missing required param: mode.', 'mode');
    const successUrl = asString(params.success_url);
    if (!successUrl) throw new StripeApiError(400, 'Missing required param: success_url.', 'success_url');
    const rawItems = Array.isArray(params.line_items) ? params.line_items : [];
    if (rawItems.length === 0)
      throw new StripeApiError(400, 'Missing required param: line_items.', 'line_items');
    const lineItems = rawItems.map((raw, i) => {
      const item = asRecord(raw);
      const price = asRecord(item.price_data);
      const product = asRecord(price.product_data);
      const name = asString(product.name);
      if (!name)
        throw new StripeApiError(
          400,
          'Missing required param: line_items[0][price_data][product_data][name].',
          `line_items[${i}][price_data][product_data][name]`,
        );
      const currency = asString(price.currency)?.toLowerCase();
      if (!currency)
        throw new StripeApiError(
          400,
          'Missing required param: currency.',
          `line_items[${i}][price_data][currency]`,
        );
      return {
        name,
        images: Array.isArray(product.images) ? product.images.map(String) : [],
        currency,
        unitAmount: requireInt(price.unit_amount, `line_items[${i}][price_data][unit_amount]`),
        quantity: requireInt(item.quantity, `line_items[${i}][quantity]`, 1),
      };
    });
    const currency = lineItems[0]!.currency;
    if (lineItems.some((l) => l.currency !== currency)) {
      throw new StripeApiError(400, 'All line items must use the same currency.', 'line_items');
    }
    const now = Math.floor(Date.now() / 1000);
    let expiresAt = now + 24 * 3600;
    if (params.expires_at !== undefined) {
      expiresAt = requireInt(params.expires_at, 'expires_at');
      if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
        throw new StripeApiError(
          400,
          'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
          'expires_at',
        );
      }
    }
    const total = lineItems.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);
    if (total < 50 && total !== 0) {
      throw new StripeApiError(
        400,
        "The Checkout Session's total amount due must add up to at least $0.50 usd",
        undefined,
        'invalid_request_error',
        'amount_too_small',
      );
    }
    const id = randomId('cs_test_', 58);
    const session: FakeSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: asString(params.cancel_url) ?? null,
      client_reference_id: asString(params.client_reference_id) ?? null,
      created: now,
      currency,
      customer_details: null,
      customer_email: asString(params.customer_email) ?? null,
      expires_at: expiresAt,
      livemode: false,
      metadata: Object.fromEntries(Object.entries(asRecord(params.metadata)).map(([k, v]) => [k, String(v)])),
      mode,
      payment_intent: null,
      payment_method_types: Array.isArray(params.allowed_payment_method_types)
        ? params.allowed_payment_method_types.map(String)
        : ['card'],
      payment_status: 'unpaid',
      status: 'open',
      success_url: successUrl,
      url: `${baseUrl}/c/pay/${id}`,
    };
    const record = { session, lineItems, params };
    records.set(id, record);
    sessions.push(record);
    return record;
  };

  const createRefund = (
    params: Record<string, unknown>,
    idempotencyKey: string | undefined,
  ): FakeRefundRecord => {
    const intentId = asString(params.payment_intent);
    if (!intentId) {
      throw new StripeApiError(
        400,
        'One of the following params should be provided for this request: payment_intent or charge.',
      );
    }
    const intent = intents.get(intentId);
    if (!intent) {
      throw new StripeApiError(
        404,
        `No such payment_intent: '${intentId}'`,
        'payment_intent',
        'invalid_request_error',
        'resource_missing',
      );
    }
    const left = intent.amount - intent.refunded;
    if (left <= 0) {
      throw new StripeApiError(
        400,
        `Charge ${intent.charge} has already been refunded.`,
        undefined,
        'invalid_request_error',
        'charge_already_refunded',
      );
    }
    const amount = params.amount === undefined ? left : requireInt(params.amount, 'amount', 1);
    if (amount > left) {
      const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
      throw new StripeApiError(
        400,
        `Refund amount (${usd(amount)}) is greater than unrefunded amount on charge (${usd(left)})`,
        'amount',
        'invalid_request_error',
        'amount_too_large',
      );
    }
    intent.refunded += amount;
    const refund: FakeRefund = {
      id: randomId('re_test_'),
      object: 'refund',
      amount,
      balance_transaction: refundStatus === 'succeeded' ? randomId('txn_test_') : null,
      charge: intent.charge,
      created: Math.floor(Date.now() / 1000),
      currency: intent.currency,
      metadata: Object.fromEntries(Object.entries(asRecord(params.metadata)).map(([k, v]) => [k, String(v)])),
      payment_intent: intentId,
      reason: asString(params.reason) ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: refundStatus,
      transfer_reversal: null,
    };
    const record = { refund, idempotencyKey, params };
    refunds.push(record);
    refundsById.set(refund.id, record);
    return record;
  };

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req_', 14) });
    res.end(JSON.stringify(body));
  };

  const hostedPage = (record: FakeSessionRecord): string => {
    const { session } = record;
    const total = `$${(session.amount_total / 100).toFixed(2)}`;
    const rows = record.lineItems
      .map(
        (l) =>
          `<li>${escapeHtml(l.name)} × ${l.quantity} — $${((l.unitAmount * l.quantity) / 100).toFixed(2)}</li>`,
      )
      .join('');
    const body =
      session.status === 'open'
        ? `<ul>${rows}</ul><p>Total <strong data-testid="total">${total}</strong></p>
<form method="post" action="/c/pay/${session.id}"><button type="submit">Pay</button></form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : ''}`
        : `<p>This Checkout Session is no longer available (${session.status}).</p>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head>
<body><h1>Test mode checkout</h1>${body}</body></html>`;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const body = await readBody(req);

    const pay = /^\/c\/pay\/([\w]+)$/.exec(url.pathname);
    if (pay) {
      const record = records.get(pay[1]!);
      if (!record) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<!doctype html><p>Not found</p>');
        return;
      }
      if (method === 'POST' && record.session.status === 'open') {
        await completeSession(record.session.id);
        const target = (record.session.success_url ?? '/').replace(
          '{CHECKOUT_SESSION_ID}',
          record.session.id,
        );
        res.writeHead(303, { location: target });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hostedPage(record));
      return;
    }

    if (!url.pathname.startsWith('/v1/')) {
      sendJson(
        res,
        404,
        new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}).`).body(),
      );
      return;
    }
    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (unreachable) {
      requests.push({ method, path: url.pathname, status: 0 });
      req.socket.destroy();
      return;
    }
    if (!acceptedKeys.has(key)) {
      const shown = key ? `${key.slice(0, 8)}****${key.slice(-4)}` : '';
      const message = key
        ? `Invalid API Key provided: ${shown}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
      requests.push({ method, path: url.pathname, status: 401 });
      sendJson(res, 401, { error: { message, type: 'invalid_request_error' } });
      return;
    }

    let status = 200;
    try {
      let result: unknown;
      const one = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname);
      const expire = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(url.pathname);
      if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const idempotencyKey = req.headers['idempotency-key'];
        const cached = typeof idempotencyKey === 'string' ? idempotent.get(idempotencyKey) : undefined;
        if (cached) {
          result = cached.session;
        } else {
          if (failures && failures.count > 0) {
            failures.count--;
            throw new StripeApiError(
              failures.status,
              'An error occurred with our connection to Stripe.',
              undefined,
              'api_error',
            );
          }
          const record = createSession(decodeStripeForm(body));
          if (typeof idempotencyKey === 'string') idempotent.set(idempotencyKey, record);
          result = record.session;
        }
      } else if (method === 'POST' && url.pathname === '/v1/refunds') {
        const idempotencyKey = req.headers['idempotency-key'];
        const key = typeof idempotencyKey === 'string' ? idempotencyKey : undefined;
        const cached = key ? refundKeys.get(key) : undefined;
        if (cached) {
          result = cached.refund;
        } else {
          const record = createRefund(decodeStripeForm(body), key);
          if (key) refundKeys.set(key, record);
          result = record.refund;
        }
      } else if (method === 'GET' && url.pathname === '/v1/balance') {
        result = {
          object: 'balance',
          available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
          livemode: key.startsWith('sk_live_') || key.startsWith('rk_live_'),
          pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
        };
      } else if (method === 'GET' && /^\/v1\/refunds\/[\w]+$/.test(url.pathname)) {
        const id = url.pathname.slice('/v1/refunds/'.length);
        const record = refundsById.get(id);
        if (!record) {
          throw new StripeApiError(
            404,
            `No such refund: '${id}'`,
            'id',
            'invalid_request_error',
            'resource_missing',
          );
        }
        result = record.refund;
      } else if (method === 'GET' && one) {
        const record = records.get(one[1]!);
        if (!record)
          throw new StripeApiError(
            404,
            `No such checkout.session: '${one[1]}'`,
            'session',
            'invalid_request_error',
            'resource_missing',
          );
        result = record.session;
      } else if (method === 'POST' && expire) {
        const record = records.get(expire[1]!);
        if (!record)
          throw new StripeApiError(
            404,
            `No such checkout.session: '${expire[1]}'`,
            'session',
            'invalid_request_error',
            'resource_missing',
          );
        await expireSession(record.session.id);
        result = record.session;
      } else {
        throw new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}).`);
      }
      sendJson(res, 200, result);
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      status = err.status;
      sendJson(res, err.status, err.body());
    } finally {
      requests.push({ method, path: url.pathname, status });
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'api_error', message: String(err) } });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    secretKey,
    webhookSecret,
    sessions,
    session: (id) => records.get(id),
    lastSession: () => sessions.at(-1),
    deliveries,
    requests,
    setWebhook(target) {
      webhook = target;
    },
    refunds,
    refundableOf(paymentIntentId) {
      const intent = intents.get(paymentIntentId);
      return intent ? intent.amount - intent.refunded : undefined;
    },
    setRefundStatus(status) {
      refundStatus = status;
    },
    settleRefund(id, status = 'succeeded') {
      const record = refundsById.get(id);
      if (!record) throw new Error(`fake Stripe: no refund ${id}`);
      if ((status === 'failed' || status === 'canceled') && record.refund.status !== status) {
        const intent = intents.get(record.refund.payment_intent);
        if (intent) intent.refunded -= record.refund.amount;
      }
      record.refund.status = status;
    },
    failNextCreate(status = 500, count = 1) {
      failures = { status, count };
    },
    acceptSecretKey(key) {
      acceptedKeys.add(key);
    },
    setUnreachable(value) {
      unreachable = value;
    },
    completeSession,
    async expireSession(id) {
      return expireSession(id);
    },
    buildEvent,
    sendEvent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
