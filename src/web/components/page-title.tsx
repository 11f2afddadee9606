import { BRAND_NAME, BRAND_TAGLINE } from './brand';

/**
 * Sets the document title in the browser (React hoists <title> into <head>). On the server the
 * page's head already has its title (index.html, or a product's own head), so none is rendered twice.
 */
export function PageTitle({ title }: { title?: string }) {
  if (typeof document === 'undefined') return null;
  return <title>{title ? `${title} · ${BRAND_NAME}` : `${BRAND_NAME} — ${BRAND_TAGLINE}`}</title>;
}
