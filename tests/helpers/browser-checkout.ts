/**
 * What the cart and checkout journeys (checkout.spec.ts, checkout-card.spec.ts) share: the
 * shopper's details, the products seeded through the admin API and handed out once each, and the
 * cart drawer's steps as a shopper goes through them.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Product, ProductInput } from '#common/schemas/product';
import { startFakeStripe, type FakeStripeServer } from '../fakes/stripe-server';
import { useBrowserSuite, type BrowserSuite } from './browser';
import { seedProductsThroughAdmin } from './browser-catalog';

export const SHOPPER = {
  firstName: 'Maya',
  lastName: 'Lindqvist',
  email: 'maya@example.com',
  phone: '(415) 555-0134',
  address: '220 Mission St',
  city: 'San Francisco',
  state: 'CA',
  zipCode: '94105',
  country: 'United States',
} as const;

const LABELS: Record<keyof typeof SHOPPER, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  city: 'City',
  state: 'State',
  zipCode: 'ZIP Code',
  country: 'Country',
};

/** Stock and prices the journeys below ask for; the rest of each product is the helper's default. */
export const JOURNEY_PRODUCTS = [
  { title: 'Align Legging', priceCents: 1_200, quantity: 10 },
  { title: 'Court Skort', priceCents: 2_500, quantity: 2, category: 'womens-skirts' },
  { title: 'Trail Short', priceCents: 2_800, quantity: 3, gender: 'mens', category: 'mens-shorts' },
  { title: 'Studio Jacket', priceCents: 6_500, quantity: 5, category: 'womens-jackets' },
  { title: 'Run Tank', priceCents: 3_400, quantity: 8, category: 'womens-tanks' },
  { title: 'Flow Bra', priceCents: 2_900, quantity: 6, category: 'womens-bras' },
  { title: 'Tempo Tee', priceCents: 3_200, quantity: 7, gender: 'mens', category: 'mens-tops' },
  { title: 'Pace Jogger', priceCents: 5_400, quantity: 4, gender: 'mens', category: 'mens-pants' },
  { title: 'Base Legging', priceCents: 4_100, quantity: 9 },
  { title: 'Warmup Hoodie', priceCents: 4_800, quantity: 6, category: 'womens-hoodies' },
  { title: 'Recovery Short', priceCents: 2_200, quantity: 5, gender: 'mens', category: 'mens-shorts' },
  { title: 'Cooldown Pant', priceCents: 3_900, quantity: 3 },
  { title: 'Stride Tank', priceCents: 2_700, quantity: 4, category: 'womens-tanks' },
  { title: 'Ridge Jacket', priceCents: 7_200, quantity: 2, gender: 'mens', category: 'mens-jackets' },
] as const satisfies ReadonlyArray<Partial<ProductInput>>;

export interface SeedLine {
  product: Product;
  quantity?: number;
}

export async function allProducts(shop: BrowserSuite): Promise<Product[]> {
  const res = await fetch(shop.url('/api/products?limit=48'));
  expect(res.status).toBe(200);
  const page = (await res.json()) as { products: Product[]; nextCursor: string | null };
  expect(page.nextCursor).toBeNull();
  return page.products;
}

/** Products handed out once each, so that journeys never compete for the same stock. */
export function productPool(products: Product[]) {
  const used = new Set<string>();
  return (test: (p: Product) => boolean, what: string): Product => {
    const found = products.find((p) => !used.has(p.id) && p.quantity > 0 && test(p));
    if (!found) throw new Error(`The seeded products have no unused one that is ${what}`);
    used.add(found.id);
    return found;
  };
}

/**
 * The journeys' suite: the Stripe stand-in (started first: the server gets its keys and URL through
 * `env`, read when the suite's server starts, the hook registered next), the built server, the
 * journey products seeded through the admin API and handed out once each (`pick`).
 */
export function useCheckoutSuite(): {
  shop: BrowserSuite;
  stripe: () => FakeStripeServer;
  pick: (test: (p: Product) => boolean, what: string) => Product;
} {
  const env: Record<string, string> = {};
  let stripe: FakeStripeServer | undefined;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    env.STRIPE_SECRET_KEY = stripe.secretKey;
    env.STRIPE_WEBHOOK_SECRET = stripe.webhookSecret;
    env.STRIPE_API_URL = stripe.url;
  });
  const shop = useBrowserSuite({ env });
  let pool: ReturnType<typeof productPool> | undefined;
  beforeAll(async () => {
    stripe?.setWebhook(shop.url('/api/webhooks/stripe'));
    // A few products with the stock and prices the journeys need (each one used once).
    await seedProductsThroughAdmin(shop.server, JOURNEY_PRODUCTS);
    pool = productPool(await allProducts(shop));
  });
  afterAll(async () => {
    await stripe?.close();
  });
  return {
    shop,
    stripe: () => stripe!,
    pick: (test, what) => pool!(test, what),
  };
}

/** Puts lines in the persisted cart (as the product modal would) and reloads the page. */
export async function seedCart(page: Page, lines: SeedLine[]): Promise<void> {
  const items = lines.map(({ product, quantity = 1 }) => ({
    productId: product.id,
    title: product.title,
    priceCents: product.priceCents,
    image: product.images[0]?.url ?? '',
    quantity,
    stock: product.quantity,
    selectedSize: product.sizes[0] ?? '',
    selectedColor: product.colors[0] ?? '',
  }));
  if (!page.url().startsWith('http')) await page.goto('/');
  await page.evaluate(
    (value) => localStorage.setItem('aelo-cart', value),
    JSON.stringify({ state: { items }, version: 1 }),
  );
  await page.reload();
}

export async function openCart(page: Page): Promise<Locator> {
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Cart, / })
    .click();
  const drawer = page.getByRole('dialog', { name: /Your Cart/ });
  await drawer.waitFor();
  return drawer;
}

/** The label of the step marked aria-current="step" (without its number). */
export async function currentStep(drawer: Locator): Promise<string> {
  const step = drawer.getByRole('list', { name: 'Checkout progress' }).locator('[aria-current="step"]');
  return ((await step.textContent()) ?? '').replace(/^\d+/, '').trim();
}

export async function expectStep(drawer: Locator, label: string): Promise<void> {
  await expect.poll(() => currentStep(drawer)).toBe(label);
}

export async function fillInfo(
  drawer: Locator,
  info: Partial<Record<keyof typeof SHOPPER, string>>,
): Promise<void> {
  for (const [key, value] of Object.entries(info)) {
    const field = drawer.getByLabel(LABELS[key as keyof typeof SHOPPER], { exact: true });
    // State and Country are selects (an empty value chooses nothing).
    if (key === 'state' || key === 'country') await field.selectOption(value);
    else await field.fill(value);
  }
}

export async function continueToPayment(drawer: Locator): Promise<void> {
  await drawer.getByRole('button', { name: 'Continue to Payment' }).click();
}

async function alertText(drawer: Locator): Promise<string> {
  const alert = drawer.getByRole('alert');
  await alert.waitFor();
  return ((await alert.textContent()) ?? '').trim();
}

export async function expectAlert(drawer: Locator, message: string): Promise<void> {
  await expect.poll(() => alertText(drawer)).toBe(message);
}
