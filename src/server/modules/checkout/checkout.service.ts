import type { z } from 'zod';
import { DEFAULT_IMAGE_PUBLIC_BASE, resolveImageUrl } from '#common/images';
import { formatUsd } from '#common/money';
import {
  CHECKOUT_SERVER_MESSAGES,
  type CheckoutConfigResponse,
  type CheckoutInputSchema,
  type CheckoutResponse,
} from '#common/schemas/checkout';
import type { SessionUser } from '#common/schemas/auth';
import type { Config } from '#server/config';
import type { Database, Tx } from '#server/db/client';
import { lockKeys } from '#server/db/locks';
import { AppError, RateLimitedError } from '#server/lib/app-error';
import type { ClientKeys } from '#server/lib/client-ip';
import { consumeClientLimit, hasWiderNetwork } from '#server/lib/client-limits';
import { crashPoint } from '#server/lib/crash-point';
import type { Logger } from '#server/lib/logger';
import type { RateLimiter } from '#server/db/rate-limiter';
import type { AuthService } from '../auth/auth.service';
import { assertStrongPassword } from '../auth/password-policy';
import { loadCheckoutProducts, reserveStock, stockRequestsFor } from '../catalog/stock.service';
import type { EventHub } from '../events/event-hub';
import type { CryptoPaymentsService, CryptoQuoteColumns } from '../payments/crypto-payments.service';
import { newPaymentReference } from '../payments/payment-reference';
import type { HolderKeys, PaymentsService } from '../payments/payments.service';
import { STRIPE_MIN_SESSION_MINUTES, type StripeGateway } from '../payments/stripe-gateway';
import { priceCheckout, type ProductForPricing } from './pricing';

/**
 * Checkout: prices the cart from the database, reserves its stock and records a pending payment in
 * one transaction, then starts the payment (a Stripe Checkout Session for cards). No order exists
 * until the payment is confirmed (payments.service.ts).
 *
 * Reservation lifetimes (docs/decisions/003-reservations.md): RESERVATION_MINUTES for crypto; for
 * cards the Stripe Checkout Session's life (at least STRIPE_MIN_SESSION_MINUTES) plus a grace
 * period for the completion webhook to arrive.
 */

export type CheckoutRequest = z.output<typeof CheckoutInputSchema>;

/** How long a card reservation outlives its Stripe session: time for the completion event to arrive. */
export const CARD_WEBHOOK_GRACE_MINUTES = 2;

/** An anonymous checkout refused because anonymous checkouts already hold their share of a product. */
export function heldByOtherShoppersMessage(title: string): string {
  return `${title} is being checked out by other shoppers. Please try again in a few minutes, or sign in to check out now.`;
}

export interface CheckoutService {
  config(): Promise<CheckoutConfigResponse>;
  /**
   * `client` (when the server knows it) is counted against the checkout rate limit and the hold
   * limits, by its key (an IPv6 /64) and its network (an IPv6 /56): every checkout holds stock
   * until it expires, so one client may not hold the shop's stock.
   */
  startCheckout(
    input: CheckoutRequest,
    user: SessionUser | null,
    client?: ClientKeys,
  ): Promise<CheckoutResponse>;
}

export interface CreateCheckoutServiceOptions {
  config: Config;
  database: Database;
  logger: Logger;
  events: EventHub;
  payments: PaymentsService;
  stripe: StripeGateway;
  crypto: CryptoPaymentsService;
  /** Whether crypto payments can be taken (the chain's accounts are known). */
  isCryptoEnabled: () => Promise<boolean>;
  /** The shared (cross-instance) rate limiter. */
  rateLimiter: RateLimiter;
  /** Hashes the password of an account asked for at checkout. */
  passwords: Pick<AuthService, 'hashPassword'>;
}

export function createCheckoutService({
  config,
  database,
  logger,
  events,
  payments,
  stripe,
  crypto,
  isCryptoEnabled,
  rateLimiter,
  passwords,
}: CreateCheckoutServiceOptions): CheckoutService {
  const log = logger.child({ module: 'checkout' });
  const imageBase = config.storage.driver === 's3' ? config.storage.publicUrl : DEFAULT_IMAGE_PUBLIC_BASE;
  /** Where the browser loads an image from (relative to the shop for local storage). */
  const imageUrl = (path: string) => resolveImageUrl(path, imageBase);
  /** Absolute, for Stripe's hosted page. */
  const absoluteImageUrl = (path: string): string | null => {
    if (path === '') return null;
    try {
      return new URL(imageUrl(path), `${config.publicUrl}/`).toString();
    } catch {
      return null;
    }
  };

  /**
   * What one checkout and one client may hold (HOLD limits in config): a checkout's units and
   * merchandise value; a client's open checkouts and held units, counted per client (an IPv4
   * address, an IPv6 /64), per signed-in user and per cart, and per IPv6 /56 at
   * IPV6_NETWORK_LIMIT_MULTIPLIER times a client's. Checked inside the reservation's transaction
   * under a lock per holder key, so two checkouts of one client at once cannot both slip under a
   * limit.
   */
  async function assertWithinHoldLimits(
    trx: Tx,
    holder: HolderKeys,
    priced: { amounts: { subtotalCents: number }; stock: ReadonlyArray<{ quantity: number }> },
  ): Promise<void> {
    const limits = config.holds;
    const units = priced.stock.reduce((sum, s) => sum + s.quantity, 0);
    if (units > limits.maxUnits) {
      const message = `A checkout can hold at most ${limits.maxUnits} items. Please check out the rest separately.`;
      throw new AppError('VALIDATION_FAILED', `items: ${message}`, { items: message });
    }
    if (priced.amounts.subtotalCents > limits.maxValueCents) {
      const message = `A checkout can hold at most ${formatUsd(limits.maxValueCents)} of items. Please check out the rest separately.`;
      throw new AppError('VALIDATION_FAILED', `items: ${message}`, { items: message });
    }
    const keys = [
      holder.clientKey && `client:${holder.clientKey}`,
      holder.clientNetwork && `network:${holder.clientNetwork}`,
      holder.userId && `user:${holder.userId}`,
      holder.cartId && `cart:${holder.cartId}`,
    ].filter((k): k is string => Boolean(k));
    await lockKeys(
      trx,
      keys.map((k) => `checkout-holder:${k}`),
    );
    for (const open of await payments.countOpenHolds(trx, holder, new Date())) {
      const times = open.key === 'clientNetwork' ? config.networkLimitMultiplier : 1;
      if (open.checkouts >= limits.maxOpenPerClient * times) {
        throw new RateLimitedError(60, CHECKOUT_SERVER_MESSAGES.tooManyOpen);
      }
      if (open.units + units > limits.maxHeldUnitsPerClient * times) {
        throw new RateLimitedError(60, CHECKOUT_SERVER_MESSAGES.tooManyHeld);
      }
    }
  }

  /**
   * What anonymous checkouts may hold together (docs/decisions/016-anonymous-holds.md), checked
   * with the products' rows locked, so two checkouts at once cannot both slip under it:
   * - of each product, anonymous unpaid checkouts hold at most ANONYMOUS_HOLD_SHARE_PERCENT of
   *   its units (buyable plus held), rounded up, so one unit of anything in stock; above it the
   *   shopper is told the item is being checked out and may sign in;
   * - an anonymous card checkout that takes a product's last buyable unit (always so for a
   *   one-off item) holds it only for RESERVATION_MINUTES, not the Stripe session's half hour.
   * Returns whether the checkout's hold is the short one. A product short of units is left to
   * the stock take, which names it ('Only N left of ...').
   */
  async function assertWithinAnonymousShare(
    trx: Tx,
    stock: ReadonlyArray<{ productId: string; title: string; quantity: number }>,
    isCard: boolean,
  ): Promise<{ shortHold: boolean }> {
    const wanted = stockRequestsFor(stock);
    const holds = new Map(
      (
        await payments.lockProductHolds(
          trx,
          wanted.map((w) => w.productId),
        )
      ).map((h) => [h.id, h]),
    );
    let shortHold = false;
    for (const want of wanted) {
      const product = holds.get(want.productId);
      if (!product || product.quantity < want.quantity) continue;
      const share = Math.ceil(((product.quantity + product.held) * config.holds.anonymousSharePercent) / 100);
      if (product.anonymousHeld + want.quantity > share) {
        throw new AppError('OUT_OF_STOCK', heldByOtherShoppersMessage(want.title));
      }
      if (isCard && product.quantity === want.quantity) shortHold = true;
    }
    return { shortHold };
  }

  return {
    async config() {
      return {
        card: { enabled: await stripe.isCardEnabled() },
        crypto: { enabled: await isCryptoEnabled() },
        reservationMinutes: config.reservationMinutes,
      };
    },

    async startCheckout(input, user, client) {
      const isCrypto = input.paymentMethod !== 'card';
      if (isCrypto && !(await isCryptoEnabled())) {
        throw new AppError('NOT_CONFIGURED', CHECKOUT_SERVER_MESSAGES.cryptoNotConfigured);
      }
      if (!isCrypto && !(await stripe.isCardEnabled())) {
        throw new AppError('NOT_CONFIGURED', CHECKOUT_SERVER_MESSAGES.cardNotConfigured);
      }
      // Every known client is counted, loopback included: a reverse proxy on the shop's machine is
      // named in TRUSTED_PROXIES, so its shoppers are told apart by X-Forwarded-For. An IPv6
      // client is its /64, and its /56 is bounded too.
      if (client) {
        await consumeClientLimit(
          rateLimiter,
          'checkout',
          client,
          config.checkoutRateLimit,
          config.networkLimitMultiplier,
          CHECKOUT_SERVER_MESSAGES.rateLimited,
        );
      }

      // A cart whose checkout was paid is closed: paying it again would charge twice for one order.
      if (input.cartId && (await payments.isCartPaid(input.cartId))) {
        throw new AppError('CONFLICT', CHECKOUT_SERVER_MESSAGES.cartAlreadyPaid);
      }
      // A new checkout from the same cart replaces the earlier one (the shopper went back and
      // changed the cart): its hold ends first, its Stripe session expired.
      if (input.cartId) await payments.releaseCart(input.cartId, new Date());
      const holder = {
        clientKey: client?.key ?? null,
        clientNetwork: client && hasWiderNetwork(client) ? client.network : null,
        userId: user?.id ?? null,
        cartId: input.cartId ?? null,
      };

      const now = Date.now();
      const sessionMinutes = Math.max(config.reservationMinutes, STRIPE_MIN_SESSION_MINUTES);
      // Whole seconds: Stripe keeps expires_at in seconds, the reservation ends exactly a grace period later.
      const sessionExpiresAt = new Date(Math.ceil((now + sessionMinutes * 60_000) / 1000) * 1000);
      // A crypto payment's life is the quote's: RESERVATION_MINUTES (the spec's 5-minute timeout),
      // as is an anonymous card checkout's that takes a product's last unit (decision 016; the
      // sweeper then expires its Stripe session). Other card payments hold for the session's life.
      const shortExpiresAt = new Date(now + config.reservationMinutes * 60_000);
      const cardExpiresAt = new Date(sessionExpiresAt.getTime() + CARD_WEBHOOK_GRACE_MINUTES * 60_000);
      const reference = newPaymentReference();
      if (!user && input.createAccount)
        assertStrongPassword(input.createAccount.password, 'createAccount.password', [
          input.shippingInfo.email ?? '',
          input.shippingInfo.firstName ?? '',
          input.shippingInfo.lastName ?? '',
        ]);
      // A signed-in shopper already has an account: the block is ignored for them.
      const accountPasswordHash =
        !user && input.createAccount ? await passwords.hashPassword(input.createAccount.password) : null;

      const quoter =
        input.paymentMethod === 'sol' || input.paymentMethod === 'aelo'
          ? await crypto.quote(input.paymentMethod)
          : null;
      const started = await database.db.transaction().execute(async (trx) => {
        const rows = await loadCheckoutProducts(
          trx,
          input.items.map((i) => i.productId),
        );
        const products = new Map<string, ProductForPricing>(
          [...rows.values()].map((r) => [
            r.id,
            {
              id: r.id,
              title: r.title,
              priceCents: r.price_cents,
              images: r.images,
              sizes: r.sizes,
              colors: r.colors,
              quantity: r.quantity,
              sizeStock: r.size_stock,
              category: r.category,
            },
          ]),
        );
        const priced = priceCheckout(products, input.items, input.paymentMethod);
        await assertWithinHoldLimits(trx, holder, priced);
        const { shortHold } = user
          ? { shortHold: false }
          : await assertWithinAnonymousShare(trx, priced.stock, !isCrypto);
        const expiresAt = isCrypto || shortHold ? shortExpiresAt : cardExpiresAt;
        // The crypto amount is quoted from the server's total, once, and kept with the payment.
        const quote: CryptoQuoteColumns | null = quoter ? quoter.priceFor(priced.amounts.totalCents) : null;
        const payment = await payments.recordPending(trx, {
          reference,
          method: input.paymentMethod,
          amounts: priced.amounts,
          lines: priced.lines,
          shippingInfo: input.shippingInfo,
          userId: user?.id ?? null,
          accountPasswordHash,
          expiresAt,
          clientIp: client?.ip ?? null,
          clientKey: client?.key ?? null,
          clientNetwork: client?.network ?? null,
          cartId: holder.cartId,
          crypto: quote,
        });
        const change = await reserveStock(trx, payment.id, priced.stock, expiresAt);
        return { payment, priced, change, quote, expiresAt };
      });
      crashPoint('checkout:after-reserve');
      await events.publish('catalog', {
        type: 'stock.changed',
        data: { productIds: started.change.productIds },
      });

      const { priced, quote, expiresAt } = started;
      const answer = {
        reference,
        accessToken: payments.accessTokenFor(reference),
        paymentMethod: input.paymentMethod,
        lines: priced.lines.map((l) => ({ ...l, image: imageUrl(l.image) })),
        amounts: priced.amounts,
        expiresAt: expiresAt.toISOString(),
      };
      if (quote && quoter) {
        return { ...answer, crypto: crypto.paymentRequest(reference, quote, quoter.decimals) };
      }
      let session;
      try {
        session = await stripe.createCheckoutSession({
          reference,
          lines: priced.lines.map((l) => ({
            name: [l.title, l.size, l.color].filter(Boolean).join(' · '),
            imageUrl: absoluteImageUrl(l.image),
            unitAmountCents: l.priceCents,
            quantity: l.quantity,
          })),
          shippingCents: priced.amounts.shippingCents,
          customerEmail: input.shippingInfo.email,
          successUrl: `${config.publicUrl}/success?reference=${reference}&token=${answer.accessToken}`,
          cancelUrl: `${config.publicUrl}/?checkout=cancelled&reference=${reference}`,
          expiresAt: sessionExpiresAt,
        });
      } catch (err) {
        log.error({ err, reference }, 'Stripe Checkout Session could not be created');
        await payments.abandon(reference, err instanceof Error ? err.message.slice(0, 500) : 'stripe error');
        if (err instanceof AppError) throw err;
        throw new AppError('UNAVAILABLE', CHECKOUT_SERVER_MESSAGES.checkoutSessionFailed);
      }
      crashPoint('checkout:after-stripe-session');
      await payments.attachStripeSession(started.payment.id, session.id);

      return { ...answer, checkoutUrl: session.url };
    },
  };
}
