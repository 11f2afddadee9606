import { z } from 'zod';
import { TokenInfoSchema } from './chain';

/** GET /api/shop: the shop's public facts for every page. */
export const ShopInfoSchema = z.object({
  /** Where shoppers write (SHOP_CONTACT_EMAIL), or null when the operator set none. */
  contactEmail: z.email().nullable(),
  /** The shop's token and the chain it is paid on (one source: the server's configuration). */
  token: TokenInfoSchema,
});
export type ShopInfo = z.infer<typeof ShopInfoSchema>;
