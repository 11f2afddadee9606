import { z } from 'zod';
import { CategorySchema, GenderSchema, ProductSchema } from './product';
import { AdminSearchSchema, PageQuerySchema, pageSchema } from './admin';

/** Admin products: list query, patch body and the category list. Routes: see admin.ts. */

export const AdminProductsQuerySchema = z.object({
  gender: z.union([z.literal('all'), GenderSchema]).default('all'),
  search: AdminSearchSchema,
  category: z
    .union([CategorySchema, z.literal('all'), z.literal('')])
    .optional()
    .transform((c) => (c === 'all' || c === '' || c === undefined ? undefined : c)),
  ...PageQuerySchema.shape,
});
export type AdminProductsQuery = z.output<typeof AdminProductsQuerySchema>;

export const AdminProductPageSchema = pageSchema(ProductSchema);

/**
 * PATCH /api/admin/products/:id: any subset of the ProductInput fields (unknown keys refused). The
 * server merges them into the stored product and validates the whole with ProductInputSchema.
 */
export const AdminProductPatchSchema = z
  .strictObject({
    title: z.unknown(),
    description: z.unknown(),
    brand: z.unknown(),
    priceCents: z.unknown(),
    originalPriceCents: z.unknown(),
    images: z.unknown(),
    quantity: z.unknown(),
    sizes: z.unknown(),
    colors: z.unknown(),
    sizeGuide: z.unknown(),
    sizeStock: z.unknown(),
    gender: z.unknown(),
    category: z.unknown(),
    shippingWeight: z.unknown(),
  })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, 'Send at least one field to change');
export type AdminProductPatch = z.infer<typeof AdminProductPatchSchema>;

/** Categories found in the data: `label` as the spec's dropdown shows it ('Womens Leggings'). */
export const AdminCategoryListSchema = z.object({
  categories: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type AdminCategoryList = z.infer<typeof AdminCategoryListSchema>;
