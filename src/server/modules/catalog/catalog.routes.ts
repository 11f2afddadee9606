import { Hono } from 'hono';
import { z } from 'zod';
import { CategorySchema, GenderSchema, isCategoryOfGender } from '#common/schemas/product';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';
import { validate } from '#server/lib/validate';

const ProductQuerySchema = z
  .object({
    gender: z
      .union([GenderSchema, z.literal('all'), z.literal('')])
      .optional()
      .transform((g) => (g === 'all' || g === '' ? undefined : g)),
    category: z
      .union([CategorySchema, z.literal('all'), z.literal('')])
      .optional()
      .transform((c) => (c === 'all' || c === '' ? undefined : c)),
  })
  .refine((q) => !q.gender || !q.category || isCategoryOfGender(q.category, q.gender), {
    path: ['category'],
    message: 'Category does not belong to that gender',
  });

export function catalogRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', validate('query', ProductQuerySchema), async (c) => {
      const products = await deps.catalog.listProducts(c.req.valid('query'));
      c.header('Cache-Control', 'no-cache');
      return c.json({ products });
    })
    .get('/:id', async (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.json(await deps.catalog.getProduct(c.req.param('id')));
    });
}
