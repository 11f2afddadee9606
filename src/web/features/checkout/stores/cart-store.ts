import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { afterHydration } from '#web/lib/after-hydration';
import { cartTotals, MAX_LINE_QUANTITY as MAX_QUANTITY, type CartTotals } from '#common/money';

/** One cart line: the product as shown when added, plus the shopper's choices. */
export interface CartItem {
  productId: string;
  title: string;
  /** Display price in cents; the server prices every checkout itself. */
  priceCents: number;
  image: string;
  quantity: number;
  /** Stock when the product was last seen; the quantity select never goes above it (nor above 5). */
  stock: number;
  /** '' when the product has no sizes / colours. */
  selectedSize: string;
  selectedColor: string;
}

/** What the product modal hands to the cart (the page composes them). */
export type AddToCartInput = Omit<CartItem, 'quantity'>;

/** Spec §9: quantity per line 1 to 5. */
export const MAX_LINE_QUANTITY = MAX_QUANTITY;

/** A line is one product in one size and one colour. */
export type CartLineKey = Pick<CartItem, 'productId' | 'selectedSize' | 'selectedColor'>;

const sameLine = (a: CartLineKey, b: CartLineKey) =>
  a.productId === b.productId && a.selectedSize === b.selectedSize && a.selectedColor === b.selectedColor;

/** A stable id for a line (React keys, test ids). */
export function cartLineId(line: CartLineKey): string {
  return `${line.productId}|${line.selectedSize}|${line.selectedColor}`;
}

/** The highest quantity a line may have: 5, and never above the stock last seen (at least 1). */
export function maxQuantityFor(item: Pick<CartItem, 'stock'>): number {
  return Math.max(1, Math.min(MAX_LINE_QUANTITY, Math.floor(item.stock)));
}

interface CartState {
  items: CartItem[];
  /**
   * A random id of this browser's cart, sent with each checkout: the server replaces the cart's
   * earlier unpaid checkout (and its hold on the stock) with the new one.
   */
  cartId: string;
  isOpen: boolean;
  open: () => void;
  close: () => void;
  toggle: () => void;
  /** Spec: the same product with the same size and colour merges and adds 1 (capped at 5 and stock). */
  addItem: (input: AddToCartInput) => void;
  /** Sets a line's quantity, kept within 1..maxQuantityFor(line). */
  setQuantity: (line: CartLineKey, quantity: number) => void;
  removeItem: (line: CartLineKey) => void;
  /** Empties the cart (the order is placed). */
  clear: () => void;
}

/** Bump the version (and extend `migrate`) whenever the persisted shape changes. */
export const CART_STORAGE_KEY = 'aelo-cart';
export const CART_STORAGE_VERSION = 1;

const isText = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** One stored line, or null when it does not have the current shape (checked by hand: zod stays out of the entry). */
function readItem(raw: unknown): CartItem | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<keyof CartItem, unknown>;
  if (!isText(r.productId) || r.productId === '' || !isText(r.title) || !isText(r.image)) return null;
  if (!isText(r.selectedSize) || !isText(r.selectedColor)) return null;
  if (!isCount(r.priceCents) || !isCount(r.quantity) || !isCount(r.stock) || r.quantity < 1) return null;
  return {
    productId: r.productId,
    title: r.title,
    priceCents: r.priceCents,
    image: r.image,
    quantity: r.quantity,
    stock: r.stock,
    selectedSize: r.selectedSize,
    selectedColor: r.selectedColor,
  };
}

/** Valid lines only, quantities clamped, duplicates merged: a hand-edited or old value never breaks the drawer. */
export function sanitizeItems(value: unknown): CartItem[] {
  if (!Array.isArray(value)) return [];
  const out: CartItem[] = [];
  for (const raw of value) {
    const item = readItem(raw);
    if (!item || item.stock < 1) continue;
    const existing = out.find((line) => sameLine(line, item));
    if (existing) existing.quantity = Math.min(maxQuantityFor(existing), existing.quantity + item.quantity);
    else out.push({ ...item, quantity: Math.min(maxQuantityFor(item), item.quantity) });
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A random (v4) UUID; getRandomValues also works on plain http, where randomUUID is missing. */
function newCartId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const useCartStore = create<CartState>()(
  persist(
    (set) => ({
      items: [],
      cartId: newCartId(),
      isOpen: false,
      open: () => set({ isOpen: true }),
      close: () => set({ isOpen: false }),
      toggle: () => set((s) => ({ isOpen: !s.isOpen })),
      addItem: (input) =>
        set((s) => {
          const cap = Math.min(MAX_LINE_QUANTITY, input.stock);
          if (cap < 1) return s;
          const existing = s.items.find((item) => sameLine(item, input));
          if (!existing) return { items: [...s.items, { ...input, quantity: 1 }] };
          return {
            items: s.items.map((item) =>
              item === existing ? { ...item, ...input, quantity: Math.min(cap, item.quantity + 1) } : item,
            ),
          };
        }),
      setQuantity: (line, quantity) =>
        set((s) => ({
          items: s.items.map((item) =>
            sameLine(item, line)
              ? { ...item, quantity: Math.max(1, Math.min(maxQuantityFor(item), Math.floor(quantity) || 1)) }
              : item,
          ),
        })),
      removeItem: (line) => set((s) => ({ items: s.items.filter((item) => !sameLine(item, line)) })),
      // A placed order starts a new cart.
      clear: () => set({ items: [], cartId: newCartId() }),
    }),
    {
      name: CART_STORAGE_KEY,
      version: CART_STORAGE_VERSION,
      storage: createJSONStorage(() => localStorage),
      // Read after the server-rendered page has hydrated (lib/after-hydration.ts).
      skipHydration: true,
      // The drawer always starts closed; only the lines survive a reload.
      partialize: (s) => ({ items: s.items, cartId: s.cartId }),
      // Older versions: keep whatever lines still fit the current shape.
      migrate: (persisted) => ({ items: sanitizeItems((persisted as { items?: unknown } | null)?.items) }),
      merge: (persisted, current) => {
        const stored = persisted as { items?: unknown; cartId?: unknown } | null;
        return {
          ...current,
          items: sanitizeItems(stored?.items),
          cartId:
            typeof stored?.cartId === 'string' && UUID.test(stored.cartId) ? stored.cartId : current.cartId,
        };
      },
    },
  ),
);

export const selectItemCount = (s: CartState): number => s.items.reduce((n, item) => n + item.quantity, 0);

/** Subtotal, shipping (free from $50.00, else $4.99) and total of the lines, for display. */
export function useCartTotals(): CartTotals {
  const items = useCartStore((s) => s.items);
  return cartTotals(items);
}

afterHydration(() => void useCartStore.persist.rehydrate());
