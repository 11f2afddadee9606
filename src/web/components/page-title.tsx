import { BRAND_NAME, BRAND_TAGLINE } from './brand';

/**
 * The document's title: React hoists <title> into <head>, in the server's HTML and in the browser
 * alike (the root route's meta leaves the title to the pages).
 */
export function PageTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · ${BRAND_NAME}` : `${BRAND_NAME} — ${BRAND_TAGLINE}`}</title>;
}
