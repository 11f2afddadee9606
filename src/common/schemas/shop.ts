import { z } from 'zod';
import { TokenInfoSchema } from './chain';

/** GET /api/shop: the shop's public facts for every page. */
export const ShopInfoSchema = z.object({
  /** Where shoppers write (SHOP_CONTACT_EMAIL), or null when the operator set none. */
  contactEmail: z.email().nullable(),
  /** The shop's token and the chain it is paid on (one source: the server's configuration). */
  token: TokenInfoSchema,
  /** No SMTP_URL: mail is not sent but kept, and the admin reads it in the back office's Outbox. */
  localMail: z.boolean(),
});
export type ShopInfo = z.infer<typeof ShopInfoSchema>;
