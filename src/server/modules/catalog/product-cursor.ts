import { z } from 'zod';
import { MAX_PRICE_CENTS } from '#common/catalog';
import { PRODUCT_SORTS, type ProductSort } from '#common/catalog-query';
import { AppError } from '#server/lib/app-error';
import type { ProductPageKey } from './catalog.repository';

/**
 * The `cursor` of GET /api/products: where the next page starts, as the last product of the page
 * before (its price, creation time to the microsecond and id) and the order it was made for. Opaque
 * to the browser (base64url of JSON), checked whole when it comes back.
 */
const CursorSchema = z.tuple([
  z.enum(PRODUCT_SORTS),
  z.number().int().min(0).max(MAX_PRICE_CENTS),
  z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  z.uuid(),
]);

export function encodeCursor(key: ProductPageKey, sort: ProductSort): string {
  return Buffer.from(JSON.stringify([sort, key.priceCents, key.createdAt, key.id])).toString('base64url');
}

const invalid = () =>
  new AppError('VALIDATION_FAILED', 'cursor: Invalid cursor', { cursor: 'Invalid cursor' });

/** The key a cursor holds; VALIDATION_FAILED when it is not one this server made for this order. */
export function decodeCursor(cursor: string, sort: ProductSort): ProductPageKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const result = CursorSchema.safeParse(parsed);
  if (!result.success || result.data[0] !== sort) throw invalid();
  const [, priceCents, createdAt, id] = result.data;
  return { priceCents, createdAt, id };
}
