import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cartTotals } from '#common/money';
import {
  maxQuantityFor,
  sanitizeItems,
  type AddToCartInput,
  type useCartStore as CartStore,
} from './cart-store';

// The store persists to localStorage: give the node test one (before the store module loads).
vi.hoisted(() => {
  const data = new Map<string, string>();
  const storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
});

const product = (over: Partial<AddToCartInput> = {}): AddToCartInput => ({
  productId: 'p1',
  title: 'Align Legging',
  priceCents: 2_000,
  image: '/uploads/p1.webp',
  stock: 10,
  selectedSize: 'M',
  selectedColor: 'Black',
  ...over,
});

let useCartStore: typeof CartStore;

describe('cart store', () => {
  // The store takes its storage when its module is evaluated. The suite's workers keep modules from
  // file to file, and another file (one that reads the router's table) may have loaded this one
  // without a localStorage: evaluate it afresh, with the one above.
  beforeAll(async () => {
    vi.resetModules();
    ({ useCartStore } = await import('./cart-store'));
  });
  beforeEach(() => useCartStore.setState({ items: [], isOpen: false }));

  it('merges the same product, size and colour (+1, capped at 5 and at stock)', () => {
    const { addItem } = useCartStore.getState();
    addItem(product());
    addItem(product());
    addItem(product({ selectedSize: 'L' }));
    expect(useCartStore.getState().items.map((i) => [i.selectedSize, i.quantity])).toEqual([
      ['M', 2],
      ['L', 1],
    ]);
    for (let i = 0; i < 10; i++) addItem(product());
    expect(useCartStore.getState().items[0]?.quantity).toBe(5);
    addItem(product({ productId: 'p2', stock: 2 }));
    addItem(product({ productId: 'p2', stock: 2 }));
    addItem(product({ productId: 'p2', stock: 2 }));
    expect(useCartStore.getState().items.find((i) => i.productId === 'p2')?.quantity).toBe(2);
    addItem(product({ productId: 'p3', stock: 0 }));
    expect(useCartStore.getState().items.some((i) => i.productId === 'p3')).toBe(false);
  });

  it('sets quantities within 1..min(5, stock) and removes lines', () => {
    const { addItem, setQuantity, removeItem } = useCartStore.getState();
    addItem(product({ stock: 3 }));
    const line = product({ stock: 3 });
    setQuantity(line, 5);
    expect(useCartStore.getState().items[0]?.quantity).toBe(3);
    setQuantity(line, 0);
    expect(useCartStore.getState().items[0]?.quantity).toBe(1);
    removeItem(line);
    expect(useCartStore.getState().items).toEqual([]);
  });

  it('totals with shipping $4.99 below $50.00 and free from $50.00', () => {
    expect(cartTotals([{ priceCents: 2_000, quantity: 2 }])).toEqual({
      subtotalCents: 4_000,
      shippingCents: 499,
      totalCents: 4_499,
    });
    expect(cartTotals([{ priceCents: 2_500, quantity: 2 }])).toEqual({
      subtotalCents: 5_000,
      shippingCents: 0,
      totalCents: 5_000,
    });
  });

  it('keeps the lines and the cart id (not the open flag) in localStorage, versioned', () => {
    useCartStore.getState().addItem(product());
    useCartStore.getState().open();
    const stored = JSON.parse(localStorage.getItem('aelo-cart') ?? 'null');
    const { cartId } = useCartStore.getState();
    expect(cartId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stored).toEqual({ state: { items: [{ ...product(), quantity: 1 }], cartId }, version: 1 });
    // A placed order starts a new cart with a new id.
    useCartStore.getState().clear();
    expect(useCartStore.getState().cartId).not.toBe(cartId);
  });

  it('reads back only well-formed lines, clamped and merged', () => {
    const good = { ...product(), quantity: 9 };
    expect(
      sanitizeItems([
        good,
        { ...good, quantity: 1 },
        { title: 'broken' },
        { ...good, productId: 'x', stock: 0 },
        null,
      ]),
    ).toEqual([{ ...product(), quantity: 5 }]);
    expect(sanitizeItems('nope')).toEqual([]);
    expect(maxQuantityFor({ stock: 2 })).toBe(2);
    expect(maxQuantityFor({ stock: 40 })).toBe(5);
  });
});
