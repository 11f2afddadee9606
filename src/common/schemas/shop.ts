import { z } from 'zod';

/** GET /api/shop: the shop's public facts for every page. */
export const ShopInfoSchema = z.object({
  /** Where shoppers write (SHOP_CONTACT_EMAIL), or null when the operator set none. */
  contactEmail: z.email().nullable(),
});
export type ShopInfo = z.infer<typeof ShopInfoSchema>;
