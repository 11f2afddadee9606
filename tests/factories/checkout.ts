import { expect } from 'vitest';
import type { CheckoutResponse, PaymentMethod } from '#common/schemas/checkout';
import type { Db } from '#server/db/client';
import type { NewProduct } from '#server/modules/catalog/catalog.repository';
import type { RunningShop } from '../helpers/shop-server';
import { TEST_ORIGIN, type TestApp, type TestClient } from '../helpers/test-app';
import { SHIPPING_INFO } from './order';
import { createProduct } from './product';

/**
 * A shopper's checkout of one product, as tests start them: a product (new, or one made before)
 * and POST /api/checkout with one line of its first size and colour, SHIPPING_INFO and a payment
 * method, through the shop a test runs.
 */

/**
 * The shop the checkout goes to: a test app (through app.request, as a new client unless `client`
 * says), a RunningShop on its port, or a shop process at `url` that trusts `origin`.
 */
export type CheckoutShop = TestApp | RunningShop | { url: string; origin: string; db: Db };

export type CheckoutProduct = NewProduct & { id: string };

export interface CheckoutOptions {
  paymentMethod: PaymentMethod;
  /** A product createProduct made, or overrides for a new one (its stock is `quantity` here). */
  product?: CheckoutProduct | Partial<NewProduct>;
  /** Units of the product in the line; 1 unless given. */
  quantity?: number;
  /** Changes to SHIPPING_INFO (another email, say). */
  shippingInfo?: Partial<typeof SHIPPING_INFO>;
  createAccount?: { password: string; confirmPassword: string };
  cartId?: string;
  /** Who posts it, on a test app (a signed-in shopper's client, say). */
  client?: TestClient;
}

export interface PostedCheckout {
  product: CheckoutProduct;
  res: Response;
}

/** Posts the checkout and answers the response as it came (for the refusals). */
export async function postCheckout(shop: CheckoutShop, options: CheckoutOptions): Promise<PostedCheckout> {
  const product =
    options.product && 'id' in options.product
      ? options.product
      : await createProduct(dbOf(shop), options.product);
  const body = {
    items: [
      {
        productId: product.id,
        size: product.sizes[0] ?? null,
        color: product.colors[0] ?? null,
        quantity: options.quantity ?? 1,
      },
    ],
    shippingInfo: { ...SHIPPING_INFO, ...options.shippingInfo },
    paymentMethod: options.paymentMethod,
    ...(options.createAccount ? { createAccount: options.createAccount } : {}),
    ...(options.cartId ? { cartId: options.cartId } : {}),
  };
  if ('deps' in shop)
    return { product, res: await (options.client ?? shop.client()).post('/api/checkout', body) };
  const res = await fetch(`${shop.url}/api/checkout`, {
    method: 'POST',
    headers: { origin: 't' in shop ? TEST_ORIGIN : shop.origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { product, res };
}

/** Starts the checkout (201, or the test fails with the answer); its response and product. */
export async function checkout(
  shop: CheckoutShop,
  options: CheckoutOptions,
): Promise<CheckoutResponse & { product: CheckoutProduct }> {
  const { product, res } = await postCheckout(shop, options);
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return { ...(JSON.parse(text) as CheckoutResponse), product };
}

function dbOf(shop: CheckoutShop): Db {
  if ('deps' in shop) return shop.deps.database.db;
  if ('t' in shop) return shop.t.deps.database.db;
  return shop.db;
}
