import type { CheckoutAmounts, PaymentMethod, PricedLine } from '#common/schemas/checkout';
import { MAX_LINE_QUANTITY, shippingCentsFor, tokenDiscountCents } from '#common/money';
import { AppError } from '#server/lib/app-error';
import {
  outOfStockMessage,
  stockRequestsBySize,
  stockRequestsFor,
  type StockRequest,
} from '../catalog/stock.service';

/**
 * Prices a checkout from the database's products: every line checked against its product (exists,
 * size and colour offered, quantity in stock), duplicate lines merged, and every amount computed
 * here. Nothing the browser says about money takes part. Pure: the caller loads the products.
 */

export interface ProductForPricing {
  id: string;
  title: string;
  priceCents: number;
  /** Storage keys or URLs; the first is the line's image. */
  images: readonly string[];
  sizes: readonly string[];
  colors: readonly string[];
  quantity: number;
  /** Buyable units per size when the product tracks its sizes apart; null (or absent) otherwise. */
  sizeStock?: Readonly<Record<string, number>> | null;
  category: string;
}

export interface CheckoutLineRequest {
  productId: string;
  size?: string | null | undefined;
  color?: string | null | undefined;
  quantity: number;
}

export interface PricedCheckout {
  lines: PricedLine[];
  amounts: CheckoutAmounts;
  /** Units to reserve per product and size (lines of one size in several colours add up). */
  stock: StockRequest[];
}

/** The spec's discount applies to payments in the shop's own token only. */
export function computeAmounts(subtotalCents: number, method: PaymentMethod): CheckoutAmounts {
  const shippingCents = shippingCentsFor(subtotalCents);
  const beforeDiscount = subtotalCents + shippingCents;
  const discountCents = method === 'aelo' ? tokenDiscountCents(beforeDiscount) : 0;
  return { subtotalCents, shippingCents, discountCents, totalCents: beforeDiscount - discountCents };
}

/**
 * The largest total one checkout may come to: what Stripe Checkout can charge in USD
 * (999,999.99), well inside the database's integer cents.
 */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;
export const ORDER_TOO_LARGE_MESSAGE = 'The order total is too large for one payment; please split the order';

export function priceCheckout(
  products: ReadonlyMap<string, ProductForPricing>,
  items: readonly CheckoutLineRequest[],
  method: PaymentMethod,
): PricedCheckout {
  const merged = new Map<string, { index: number; line: PricedLine }>();

  items.forEach((item, index) => {
    const field = (name: string) => `items.${index}.${name}`;
    const product = products.get(item.productId);
    if (!product) {
      const message = 'A product in your cart is no longer available';
      throw new AppError('NOT_FOUND', message, { [field('productId')]: message });
    }
    const size = chooseSize(product, item.size ?? null, field('size'));
    const color = chooseColor(product, item.color ?? null, field('color'));
    const key = `${product.id}|${size ?? ''}|${color ?? ''}`;
    const existing = merged.get(key);
    if (existing) {
      existing.line.quantity += item.quantity;
      return;
    }
    merged.set(key, {
      index,
      line: {
        productId: product.id,
        title: product.title,
        image: product.images[0] ?? '',
        category: product.category,
        size,
        color,
        quantity: item.quantity,
        priceCents: product.priceCents,
        lineTotalCents: 0,
      },
    });
  });

  for (const { index, line } of merged.values()) {
    if (line.quantity > MAX_LINE_QUANTITY) {
      const message = `At most ${MAX_LINE_QUANTITY} of ${line.title} per order line`;
      throw new AppError('VALIDATION_FAILED', message, { [`items.${index}.quantity`]: message });
    }
    line.lineTotalCents = line.priceCents * line.quantity;
  }

  const lines = [...merged.values()].map((m) => m.line);
  // The field of the cart line that first named the product (in that size).
  const fieldOf = (productId: string, size?: string | null) =>
    `items.${
      [...merged.values()].find(
        (m) => m.line.productId === productId && (size === undefined || m.line.size === size),
      )?.index ?? 0
    }.quantity`;
  for (const entry of stockRequestsFor(lines)) {
    const available = products.get(entry.productId)?.quantity ?? 0;
    if (entry.quantity > available) {
      const message = outOfStockMessage(entry.title, available);
      throw new AppError('OUT_OF_STOCK', message, { [fieldOf(entry.productId)]: message });
    }
  }
  // A product whose sizes are tracked apart has that many units in each size asked for.
  const stock = stockRequestsBySize(lines);
  for (const entry of stock) {
    const sizeStock = products.get(entry.productId)?.sizeStock;
    if (!sizeStock) continue;
    const available = sizeStock[entry.size ?? ''] ?? 0;
    if (entry.quantity > available) {
      const message = outOfStockMessage(entry.title, available, entry.size);
      throw new AppError('OUT_OF_STOCK', message, { [fieldOf(entry.productId, entry.size)]: message });
    }
  }

  const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  const amounts = computeAmounts(subtotalCents, method);
  if (amounts.totalCents > MAX_ORDER_TOTAL_CENTS) {
    throw new AppError('VALIDATION_FAILED', ORDER_TOO_LARGE_MESSAGE, { items: ORDER_TOO_LARGE_MESSAGE });
  }
  return {
    lines,
    amounts,
    stock,
  };
}

function chooseSize(product: ProductForPricing, size: string | null, field: string): string | null {
  if (product.sizes.length === 0) {
    if (size === null) return null;
    const message = `${product.title} does not come in sizes`;
    throw new AppError('CONFLICT', message, { [field]: message });
  }
  if (size === null) {
    const message = `Please choose a size for ${product.title}`;
    throw new AppError('VALIDATION_FAILED', message, { [field]: message });
  }
  if (!product.sizes.includes(size)) {
    const message = `Size ${size} is not available for ${product.title}`;
    throw new AppError('CONFLICT', message, { [field]: message });
  }
  return size;
}

/** Colours match case-insensitively; the line keeps the product's own spelling. */
function chooseColor(product: ProductForPricing, color: string | null, field: string): string | null {
  const wanted = color?.trim() ?? '';
  if (product.colors.length === 0) {
    if (wanted === '') return null;
    const message = `${product.title} does not come in colors`;
    throw new AppError('CONFLICT', message, { [field]: message });
  }
  if (wanted === '') {
    const message = `Please choose a color for ${product.title}`;
    throw new AppError('VALIDATION_FAILED', message, { [field]: message });
  }
  const match = product.colors.find((c) => c.toLowerCase() === wanted.toLowerCase());
  if (match === undefined) {
    const message = `Color ${wanted} is not available for ${product.title}`;
    throw new AppError('CONFLICT', message, { [field]: message });
  }
  return match;
}
