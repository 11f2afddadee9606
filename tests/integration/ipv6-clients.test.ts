import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#common/errors';
import { CHECKOUT_SERVER_MESSAGES, type CheckoutResponse } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import { sweepExpiredReservations } from '#server/jobs/reservation-sweeper';
import { SHIPPING_INFO } from '../factories/order';
import { createProduct } from '../factories/product';
import { startFakeStripe, type FakeStripeServer, stripeEnv } from '../fakes/stripe-server';
import { BACKENDS, warnIfPostgresSkipped } from '../helpers/databases';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

/**
 * IPv6 clients through a trusted reverse proxy (X-Forwarded-For from 127.0.0.1, the shop on a real
 * port): anyone with one IPv6 address can use any of the 2^64 addresses of its /64, and a provider
 * hands a customer up to a /56. So every limit counts a /64 as one client and bounds a /56 at
 * IPV6_NETWORK_LIMIT_MULTIPLIER times a client's limit: stock holds, checkout and Buy Token rate
 * limits, sign-up and live streams. Beside them, what anonymous checkouts may hold in total
 * (docs/decisions/016-anonymous-holds.md), and the admins' own reserve of live streams.
 */

const RESERVATION_MINUTES = 5;
const ENV = {
  TRUSTED_PROXIES: '127.0.0.1',
  CHECKOUT_RATE_LIMIT: '8',
  TOKEN_PURCHASE_RATE_LIMIT: '3',
  SIGN_UP_RATE_LIMIT: '2',
  EVENTS_MAX_STREAMS: '10',
  EVENTS_MAX_STREAMS_PER_CLIENT: '2',
  EVENTS_HEARTBEAT_SECONDS: '5',
  IPV6_NETWORK_LIMIT_MULTIPLIER: '4',
  RESERVATION_MINUTES: String(RESERVATION_MINUTES),
  // A cluster with no accounts configured: Buy Token answers "not available" at once, no ledger.
  SOLANA_RPC_URL: 'http://127.0.0.1:9',
};

/** An address of the /64 `prefix` (four groups) with a random interface id. */
function inSubnet(prefix: string): string {
  const groups = Array.from({ length: 4 }, () => randomBytes(2).toString('hex'));
  return `${prefix}:${groups.join(':')}`;
}

let ipv4 = 0;
/** A client of its own (an IPv4 address no other test uses). */
const anotherIpv4 = () => `100.64.${(++ipv4 >> 8) & 255}.${ipv4 & 255}`;

/** A browser behind the shop's reverse proxy: its address arrives in X-Forwarded-For. */
class ProxiedClient {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    readonly address: string,
  ) {}

  async request(method: string, path: string, json?: unknown): Promise<Response> {
    const headers = new Headers({ 'x-forwarded-for': this.address });
    if (method !== 'GET') {
      headers.set('origin', TEST_ORIGIN);
      headers.set('content-type', 'application/json');
    }
    if (this.cookies.size > 0) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(pair.slice(0, eq).trim());
      else this.cookies.set(pair.slice(0, eq).trim(), value);
    }
    return res;
  }
}

describe.each(BACKENDS)('IPv6 clients and anonymous holds behind a trusted proxy (%s)', (backend) => {
  let fake: FakeStripeServer;
  let t: TestApp;
  let server: ServerType;
  let base: string;
  let db: Db;
  /** The app's own live-event subscriptions (its caches'), with no stream open. */
  let appSubscriptions: number;

  beforeAll(async () => {
    warnIfPostgresSkipped();
    fake = await startFakeStripe();
    t = await startTestApp({ backend, env: { ...stripeEnv(fake), ...ENV } });
    fake.setWebhook(async (req) => t.app.request(req));
    db = t.deps.database.db;
    appSubscriptions = t.deps.events.subscriberCount;
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    (server as Server | undefined)?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
    await fake?.close();
  });

  const as = (address: string) => new ProxiedClient(base, address);
  const product = (quantity: number) =>
    createProduct(db, { sizes: ['M'], colors: ['Black'], sizeGuide: null, quantity, priceCents: 5_000 });
  const buyable = async (id: string) =>
    (await db.selectFrom('products').select('quantity').where('id', '=', id).executeTakeFirstOrThrow())
      .quantity;
  const checkout = (client: ProxiedClient, productId: string, quantity = 1) =>
    client.request('POST', '/api/checkout', {
      items: [{ productId, size: 'M', color: 'Black', quantity }],
      shippingInfo: SHIPPING_INFO,
      paymentMethod: 'card',
    });
  const errorOf = async (res: Response) => ((await res.json()) as ErrorBody).error;
  const signUp = (client: ProxiedClient) =>
    client.request('POST', '/api/auth/sign-up/email', {
      email: `shopper-${randomBytes(6).toString('hex')}@example.com`,
      password: 'Quiet-Harbour-Lantern-4812',
    });
  /** A signed-in shopper (an account made by the shop, signed in through the proxy). */
  async function member(role: 'customer' | 'admin' = 'customer'): Promise<ProxiedClient> {
    const email = `${role}-${randomBytes(6).toString('hex')}@example.com`;
    await t.deps.auth.createUser({ email, password: 'Quiet-Harbour-Lantern-4812', role });
    const client = as(anotherIpv4());
    const res = await client.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'Quiet-Harbour-Lantern-4812',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return client;
  }
  /** Statuses of `count` requests made one after another. */
  async function statuses(count: number, send: (i: number) => Promise<Response>): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await send(i);
      out.push(res.status);
      await res.body?.cancel();
    }
    return out;
  }
  const count = (list: number[], status: number) => list.filter((s) => s === status).length;

  // --- stock holds -------------------------------------------------------------------------------

  it('counts 20 addresses of one /64 as one client: together they hold no more than one client may', async () => {
    const stock = await product(100);
    const results: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await checkout(as(inSubnet('2001:db8:a:1')), stock.id, 5);
      results.push(res.status);
      if (res.status === 429) {
        expect(Object.values(CHECKOUT_SERVER_MESSAGES)).toContain((await errorOf(res)).message);
      } else await res.body?.cancel();
    }
    // CHECKOUT_MAX_OPEN_PER_CLIENT (3) checkouts of 5 units (CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: 15).
    expect(count(results, 201)).toBe(3);
    expect(count(results, 429)).toBe(17);
    expect(await buyable(stock.id)).toBe(85);
  });

  it('bounds a /56: its /64s together hold at most IPV6_NETWORK_LIMIT_MULTIPLIER times a client', async () => {
    const stock = await product(100);
    const results: number[] = [];
    // Six /64s of 2001:db8:b:100::/56, three checkouts each: 18 asked, 3 x 4 = 12 open at most.
    for (let net = 0; net < 6; net++) {
      for (let i = 0; i < 3; i++) {
        const res = await checkout(as(inSubnet(`2001:db8:b:10${net}`)), stock.id);
        results.push(res.status);
        if (res.status === 429)
          expect((await errorOf(res)).message).toBe(CHECKOUT_SERVER_MESSAGES.tooManyOpen);
        else await res.body?.cancel();
      }
    }
    expect(count(results, 201)).toBe(12);
    expect(results.slice(12)).toEqual(Array(6).fill(429));
    expect(await buyable(stock.id)).toBe(88);
    // Another /56 of the same provider is another customer.
    const neighbour = await checkout(as(inSubnet('2001:db8:b:200')), stock.id);
    expect(neighbour.status).toBe(201);
  });

  // --- rate limits ------------------------------------------------------------------------------

  it('counts the checkout rate limit per /64 and bounds it per /56', async () => {
    const soldOut = await product(0);
    const oneClient = await statuses(10, () => checkout(as(inSubnet('2001:db8:c:1')), soldOut.id));
    expect(oneClient).toEqual([...Array(8).fill(409), 429, 429]);
    const limited = await checkout(as(inSubnet('2001:db8:c:1')), soldOut.id);
    expect(await errorOf(limited)).toEqual({
      code: 'RATE_LIMITED',
      message: CHECKOUT_SERVER_MESSAGES.rateLimited,
    });
    // Five /64s of 2001:db8:c:200::/56, eight each: the network's 8 x 4 = 32 are gone after four.
    const network = await statuses(40, (i) =>
      checkout(as(inSubnet(`2001:db8:c:20${Math.floor(i / 8)}`)), soldOut.id),
    );
    expect(network.slice(0, 32)).toEqual(Array(32).fill(409));
    expect(network.slice(32)).toEqual(Array(8).fill(429));
  });

  it('counts the Buy Token rate limit per /64 and bounds it per /56', async () => {
    const buy = (address: string) => as(address).request('POST', '/api/token-purchases', { amountUsd: '20' });
    const oneClient = await statuses(5, () => buy(inSubnet('2001:db8:d:1')));
    expect(count(oneClient.slice(0, 3), 429)).toBe(0);
    expect(oneClient.slice(3)).toEqual([429, 429]);
    // Five /64s of one /56, three each: 3 x 4 = 12 for the network.
    const network = await statuses(15, (i) => buy(inSubnet(`2001:db8:d:20${Math.floor(i / 3)}`)));
    expect(count(network.slice(0, 12), 429)).toBe(0);
    expect(network.slice(12)).toEqual([429, 429, 429]);
  });

  it('counts the sign-up limit per /64 and bounds it per /56', async () => {
    expect(await statuses(3, () => signUp(as(inSubnet('2001:db8:e:1'))))).toEqual([200, 200, 429]);
    // Five /64s of one /56, two each: 2 x 4 = 8 for the network.
    const network = await statuses(10, (i) => signUp(as(inSubnet(`2001:db8:e:20${Math.floor(i / 2)}`))));
    expect(network).toEqual([...Array(8).fill(200), 429, 429]);
  });

  // --- what anonymous checkouts hold in total -------------------------------------------------

  it('lets anonymous checkouts together hold at most half of a product; signed-in shoppers still buy', async () => {
    const stock = await product(4);
    const results: number[] = [];
    let refused: ErrorBody['error'] | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await checkout(as(anotherIpv4()), stock.id);
      results.push(res.status);
      if (res.status === 409) refused = await errorOf(res);
      else await res.body?.cancel();
    }
    expect(results).toEqual([201, 201, 409, 409]);
    expect(refused).toEqual({
      code: 'OUT_OF_STOCK',
      message: `${stock.title} is being checked out by other shoppers. Please try again in a few minutes, or sign in to check out now.`,
    });
    expect(await buyable(stock.id)).toBe(2);
    const res = await checkout(await member(), stock.id, 2);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await buyable(stock.id)).toBe(0);
  });

  it('holds the last unit of a one-off item for an anonymous card checkout only for the short window', async () => {
    const oneOff = await product(1);
    const started = Date.now();
    const res = await checkout(as(anotherIpv4()), oneOff.id);
    expect(res.status).toBe(201);
    const body = (await res.json()) as CheckoutResponse;
    const holdMs = new Date(body.expiresAt).getTime() - started;
    expect(holdMs).toBeLessThanOrEqual(RESERVATION_MINUTES * 60_000 + 5_000);
    expect(holdMs).toBeGreaterThan(RESERVATION_MINUTES * 60_000 - 5_000);
    const session = fake.lastSession()!.session;
    expect(body.checkoutUrl).toBe(session.url);
    expect(await buyable(oneOff.id)).toBe(0);
    // When the short hold ends the unit is back and the Stripe session can no longer be paid.
    await sweepExpiredReservations(t.deps, new Date(started + (RESERVATION_MINUTES + 1) * 60_000));
    expect(await buyable(oneOff.id)).toBe(1);
    expect(fake.session(session.id)?.session.status).toBe('expired');

    // A signed-in shopper's card checkout holds it for the whole Stripe session.
    const mine = await checkout(await member(), oneOff.id);
    expect(mine.status).toBe(201);
    const memberHold = new Date(((await mine.json()) as CheckoutResponse).expiresAt).getTime() - Date.now();
    expect(memberHold).toBeGreaterThan(30 * 60_000);
  });

  it('keeps the long card hold for an anonymous checkout that leaves units for others', async () => {
    const stock = await product(10);
    const res = await checkout(as(anotherIpv4()), stock.id, 2);
    expect(res.status).toBe(201);
    const hold = new Date(((await res.json()) as CheckoutResponse).expiresAt).getTime() - Date.now();
    expect(hold).toBeGreaterThan(30 * 60_000);
  });

  // --- live streams -------------------------------------------------------------------------------

  const openStream = (client: ProxiedClient, topics = 'catalog') =>
    client.request('GET', `/api/events?topics=${topics}`);
  async function closeAll(streams: Response[]): Promise<void> {
    for (const s of streams) await s.body?.cancel().catch(() => undefined);
    streams.length = 0;
  }
  /**
   * Waits until the server has let go of every stream: only the app's own subscriptions are left
   * (a stream gives its slot back as it unsubscribes).
   */
  async function waitForSlots(): Promise<void> {
    await expect
      .poll(() => t.deps.events.subscriberCount, { timeout: 5_000, interval: 20, message: 'streams let go' })
      .toBe(appSubscriptions);
  }

  it('caps live streams per /64 and bounds them per /56', async () => {
    const open: Response[] = [];
    try {
      const oneClient: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await openStream(as(inSubnet('2001:db8:f:1')));
        oneClient.push(res.status);
        if (res.status === 200) open.push(res);
        else await res.body?.cancel();
      }
      expect(oneClient).toEqual([200, 200, 429]);
      await closeAll(open);
      await waitForSlots();

      // Five /64s of one /56, two each: 2 x 4 = 8 for the network (the process allows 10).
      const network: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await openStream(as(inSubnet(`2001:db8:f:20${Math.floor(i / 2)}`)));
        network.push(res.status);
        if (res.status === 200) open.push(res);
        else await res.body?.cancel();
      }
      expect(network).toEqual([...Array(8).fill(200), 429, 429]);
    } finally {
      await closeAll(open);
      await waitForSlots();
    }
  });

  it('keeps a reserve for admins: an admin stream opens when the public ones fill the cap', async () => {
    const admin = await member('admin');
    const open: Response[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const res = await openStream(as(anotherIpv4()));
        expect(res.status).toBe(200);
        open.push(res);
      }
      const visitor = await openStream(as(anotherIpv4()));
      expect(visitor.status).toBe(503);
      await visitor.body?.cancel();
      const adminStream = await openStream(admin, 'admin:orders');
      expect(adminStream.status).toBe(200);
      open.push(adminStream);
    } finally {
      await closeAll(open);
      await waitForSlots();
    }
  });
});
