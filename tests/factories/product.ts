import type { Db } from '#server/db/client';
import { createCatalogRepository, type NewProduct } from '#server/modules/catalog/catalog.repository';

/**
 * Products for tests, in the same shape the demo seed and the admin service insert (`NewProduct`:
 * validated input, cents, image storage keys). Each call gets distinct values; pass overrides for
 * what the test is about.
 */

let sequence = 0;

export function buildProduct(overrides: Partial<NewProduct> = {}): NewProduct {
  const n = ++sequence;
  return {
    title: `Test Legging ${n}`,
    description: 'Condition: Like New. Authenticated.',
    brand: 'Test Brand',
    // $40 to $89: varied, and bounded however many products a worker made before (test files
    // share a worker's modules, so the sequence runs across files).
    priceCents: 4000 + (n % 50) * 100,
    originalPriceCents: null,
    images: [`products/1700000000000-test${String(n).padStart(4, '0')}-800.webp`],
    quantity: 10,
    sizes: ['S', 'M', 'L'],
    colors: ['Black'],
    sizeGuide: { waist: ['26-27', '28-29', '30-32'] },
    gender: 'womens',
    category: 'womens-leggings',
    shippingWeight: 0.4,
    ...overrides,
  };
}

/** Builds and inserts a product; returns it with its id. */
export async function createProduct(
  db: Db,
  overrides: Partial<NewProduct> = {},
): Promise<NewProduct & { id: string }> {
  const product = buildProduct(overrides);
  const id = await createCatalogRepository(db).insertProduct(product);
  return { ...product, id };
}
