import type { DemoProduct } from './demo-catalog-kit';
import { DEMO_PRODUCTS_1 } from './demo-products-1';
import { DEMO_PRODUCTS_2 } from './demo-products-2';

/**
 * The demo catalogue seeded into an empty shop (SEED_DEMO): its items, in listing order, are in
 * demo-products-1.ts and demo-products-2.ts; their types and shared texts in demo-catalog-kit.ts.
 */
export const DEMO_CATALOG: DemoProduct[] = [...DEMO_PRODUCTS_1, ...DEMO_PRODUCTS_2];
