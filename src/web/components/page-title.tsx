import { useShopName } from '../lib/shop-name';
import { BRAND_TAGLINE } from './brand';

/**
 * The document's title: React hoists <title> into <head>, in the server's HTML and in the browser
 * alike (the root route's meta leaves the title to the pages).
 */
export function PageTitle({ title }: { title?: string }) {
  const shopName = useShopName();
  return <title>{title ? `${title} · ${shopName}` : `${shopName} — ${BRAND_TAGLINE}`}</title>;
}
