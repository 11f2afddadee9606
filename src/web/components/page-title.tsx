import { BRAND_NAME, BRAND_TAGLINE } from './brand';

/** Sets the document title (React hoists <title> into <head>). */
export function PageTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · ${BRAND_NAME}` : `${BRAND_NAME} — ${BRAND_TAGLINE}`}</title>;
}
