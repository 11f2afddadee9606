/**
 * The shop's name when SHOP_NAME is not set: the brand this repository ships with. The server
 * reads SHOP_NAME (config.ts) and hands it to the pages (PageContext.shopName), the mails
 * (`{{shopName}}` in every template), Solana Pay labels, wallet sign-in and two-factor apps.
 */
export const DEFAULT_SHOP_NAME = 'Aelo';
