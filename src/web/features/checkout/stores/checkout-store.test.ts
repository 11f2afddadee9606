import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_SERVER_MESSAGES, type PaymentStatusResponse } from '#common/schemas/checkout';
import type { useCartStore as CartStore } from './cart-store';
import type { useCheckoutStore as CheckoutStore } from './checkout-store';
import type * as OrderPlaced from '../utils/order-placed';
import { cryptoStatusView } from '../hooks/use-crypto-payment-status';
import { orderStatusHref } from '../utils/order-links';
import { RETURN_PAGE_MESSAGES } from '../utils/payment-polling';

// The stores persist to localStorage: give the node test one (before the store modules load).
const data = vi.hoisted(() => {
  const map = new Map<string, string>();
  const storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
  return map;
});

let useCartStore: typeof CartStore;
let useCheckoutStore: typeof CheckoutStore;
let orderPlaced: typeof OrderPlaced;

const line = {
  productId: 'p1',
  title: 'Align Legging',
  priceCents: 2_000,
  image: '/uploads/p1.webp',
  stock: 3,
  selectedSize: 'M',
  selectedColor: 'Black',
};

const paid = (over: Partial<PaymentStatusResponse> = {}): PaymentStatusResponse => ({
  status: 'completed',
  transaction_signature: null,
  order_id: '0123456789abcdef',
  demo: false,
  ...over,
});

describe('a paid checkout is closed', () => {
  // Evaluated afresh with the storage above (see cart-store.test.ts).
  beforeAll(async () => {
    vi.resetModules();
    ({ useCartStore } = await import('./cart-store'));
    ({ useCheckoutStore } = await import('./checkout-store'));
    orderPlaced = await import('../utils/order-placed');
  });
  beforeEach(() => {
    useCheckoutStore.getState().finish();
    useCartStore.setState({ items: [] });
    useCartStore.getState().addItem(line);
    useCheckoutStore.getState().goTo('payment');
  });

  it('empties the cart at once (a new cart id) and has no Back from the confirmation', () => {
    const before = useCartStore.getState().cartId;
    orderPlaced.placeOrder(
      orderPlaced.confirmationFrom(
        { reference: 'ref-1', totalCents: 2_499, name: 'Maya L', email: 'm@example.com' },
        paid({ order_number: '01234567', order_url: '/orders/0123?token=t', account_order_url: null }),
      ),
    );
    expect(useCartStore.getState().items).toEqual([]);
    expect(useCartStore.getState().cartId).not.toBe(before);
    const checkout = useCheckoutStore.getState();
    expect(checkout.step).toBe('confirmation');
    expect(checkout.confirmation).toMatchObject({
      orderNumber: '01234567',
      orderUrl: '/orders/0123?token=t',
    });
    checkout.back();
    expect(useCheckoutStore.getState().step).toBe('confirmation');
  });

  it("carries the status's demo mark to the confirmation step (unknown without a status)", () => {
    const base = { reference: 'ref-d', totalCents: 1_000, name: 'Maya L', email: 'm@example.com' };
    expect(orderPlaced.confirmationFrom(base, paid({ demo: true })).demo).toBe(true);
    expect(orderPlaced.confirmationFrom(base, paid()).demo).toBe(false);
    expect(orderPlaced.confirmationFrom(base).demo).toBeUndefined();
  });

  it('keeps the confirmation and its order links across a reload, and drops another site’s link', async () => {
    orderPlaced.placeOrder(
      orderPlaced.confirmationFrom(
        { reference: 'ref-2', totalCents: 100, name: 'A', email: 'a@example.com' },
        paid({ order_url: '/orders/x?token=y', account_order_url: 'https://evil.example/orders' }),
      ),
    );
    const stored = JSON.parse(data.get('aelo-checkout')!) as { state: Record<string, unknown> };
    expect(stored.state.step).toBe('confirmation');
    // Another page's state in memory; a tampered store: only same-site paths survive.
    useCheckoutStore.setState({ step: 'cart', confirmation: null });
    const confirmation = stored.state.confirmation as Record<string, unknown>;
    data.set(
      'aelo-checkout',
      JSON.stringify({
        ...stored,
        state: { ...stored.state, confirmation: { ...confirmation, orderUrl: '//evil.example' } },
      }),
    );
    await useCheckoutStore.persist.rehydrate();
    const kept = useCheckoutStore.getState();
    expect(kept.step).toBe('confirmation');
    expect(kept.confirmation).toMatchObject({ reference: 'ref-2', orderNumber: '01234567', orderUrl: null });
    expect(kept.confirmation?.accountOrderUrl).toBeNull();
  });

  it('a stale Pay refused with 409 empties the cart and says why on the cart step', async () => {
    // The api-client the (re-evaluated) module uses.
    const { ApiError } = await import('#web/lib/api-client');
    const refusal = new ApiError('CONFLICT', CHECKOUT_SERVER_MESSAGES.cartAlreadyPaid, 409);
    expect(orderPlaced.isCartAlreadyPaid(refusal)).toBe(true);
    expect(orderPlaced.isCartAlreadyPaid(new ApiError('CONFLICT', 'Something else', 409))).toBe(false);
    orderPlaced.closePaidCart();
    expect(useCartStore.getState().items).toEqual([]);
    expect(useCheckoutStore.getState()).toMatchObject({
      step: 'cart',
      notice: CHECKOUT_SERVER_MESSAGES.cartAlreadyPaid,
    });
  });
});

describe('what the crypto block says', () => {
  it('a real timeout (nothing arrived, nothing refunded) is the spec’s text; otherwise the server’s own', () => {
    const expired: PaymentStatusResponse = {
      status: 'expired',
      transaction_signature: null,
      order_id: null,
      demo: false,
    };
    expect(cryptoStatusView(expired)).toMatchObject({
      state: 'ended',
      message: RETURN_PAGE_MESSAGES.timeout,
      isTimeout: true,
    });
    const refunded: PaymentStatusResponse = {
      status: 'failed',
      transaction_signature: null,
      order_id: null,
      demo: false,
      message: 'Your payment arrived after the checkout expired; it is being refunded.',
      refunds: [{ amountText: '0.2200 SOL', status: 'pending', reason: 'Paid after expiry' }],
    };
    expect(cryptoStatusView(refunded)).toMatchObject({
      state: 'ended',
      message: refunded.message,
      isTimeout: false,
    });
    const part: PaymentStatusResponse = {
      status: 'pending',
      transaction_signature: null,
      order_id: null,
      demo: false,
      message: 'Please send the rest',
      received: { symbol: 'SOL', receivedText: '0.1100', dueText: '0.2200', remainingText: '0.1100' },
    };
    expect(cryptoStatusView(part)).toEqual({
      state: 'waiting',
      message: 'Please send the rest',
      received: part.received,
    });
  });

  it('View Order Status: the account’s order for a signed-in customer, else the guest page', () => {
    const links = { orderUrl: '/orders/1?token=t', accountOrderUrl: '/profile/orders' };
    expect(orderStatusHref(links, false)).toBe('/orders/1?token=t');
    expect(orderStatusHref(links, true)).toBe('/profile/orders');
    expect(orderStatusHref({ orderUrl: '/orders/1?token=t', accountOrderUrl: null }, true)).toBe(
      '/orders/1?token=t',
    );
  });
});
