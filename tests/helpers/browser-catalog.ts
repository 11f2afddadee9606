import sharp from 'sharp';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Product, ProductInput } from '#common/schemas/product';
import type { ShopServer } from './browser';

/**
 * A few products for a browser journey, made the way an admin makes them: signed in as the
 * server's admin, one real image uploaded (POST /api/uploads) and each product created through
 * POST /api/admin/products. Far cheaper than seeding the whole demo catalogue and rendering its
 * photos; the storefront journeys (storefront*.spec.ts) still run on the demo catalogue.
 */
export async function seedProductsThroughAdmin(
  server: ShopServer,
  products: ReadonlyArray<Partial<ProductInput>>,
): Promise<Product[]> {
  const origin = server.baseUrl;
  const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(server.admin),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

  const png = await sharp({
    create: { width: 600, height: 800, channels: 3, background: { r: 231, g: 229, b: 228 } },
  })
    .png()
    .toBuffer();
  const upload = await fetch(`${origin}/api/uploads`, {
    method: 'POST',
    headers: { origin, cookie, 'content-type': 'image/png' },
    body: new Uint8Array(png),
  });
  expect(upload.status).toBe(201);
  const { path: image } = (await upload.json()) as { path: string };

  const created: Product[] = [];
  for (const [i, overrides] of products.entries()) {
    const input: ProductInput = {
      title: `Journey Legging ${i + 1}`,
      description: 'Condition: Like New. Authenticated.',
      brand: 'Test Brand',
      priceCents: 3_000 + i * 500,
      originalPriceCents: null,
      images: [image],
      quantity: 10,
      sizes: ['S', 'M', 'L'],
      colors: ['Black', 'Navy'],
      sizeGuide: null,
      sizeStock: null,
      gender: 'womens',
      category: 'womens-leggings',
      shippingWeight: 0.5,
      ...overrides,
    };
    const res = await fetch(`${origin}/api/admin/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: JSON.stringify(input),
    });
    expect(res.status).toBe(201);
    created.push((await res.json()) as Product);
  }
  return created;
}

/**
 * The cart drawer opened on `/` with one of `product` in the cart (written to the cart's
 * localStorage as the store keeps it, then the page reloaded), at its first step.
 */
export async function openCartWith(page: Page, product: Product): Promise<Locator> {
  await page.goto('/');
  await page.evaluate(
    (value) => localStorage.setItem('aelo-cart', value),
    JSON.stringify({
      state: {
        items: [
          {
            productId: product.id,
            title: product.title,
            priceCents: product.priceCents,
            image: product.images[0]?.url ?? '',
            quantity: 1,
            stock: product.quantity,
            selectedSize: product.sizes[0] ?? '',
            selectedColor: product.colors[0] ?? '',
          },
        ],
      },
      version: 1,
    }),
  );
  await page.reload();
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Cart, / })
    .click();
  return page.getByRole('dialog', { name: /Your Cart/ });
}
