import type { Product } from '#common/schemas/product';
import { absoluteUrl, productJsonLd, productMetaDescription } from '#common/seo';

/** Static pages listed in the sitemap, besides one URL per product. */
export const SITEMAP_PAGES = [
  '/',
  '/about',
  '/faq',
  '/shipping',
  '/terms',
  '/privacy',
  '/how-to-buy',
  '/contact',
];

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
const escapeXml = escapeHtml;

/**
 * Puts a product's title, description, canonical URL, Open Graph tags and JSON-LD into the SPA's
 * index.html, so a shared product link previews and indexes well. JSON-LD is data, not script:
 * CSP does not run it, and `<` is escaped so it cannot close the tag.
 */
export function injectProductHead(html: string, p: Product, publicUrl: string): string {
  const title = `${p.title} — ${p.brand} | Aelo`;
  const description = productMetaDescription(p);
  const url = `${publicUrl}/products/${p.id}`;
  const image = p.images[0] ? absoluteUrl(p.images[0].url, publicUrl) : undefined;
  const json = JSON.stringify(productJsonLd(p, publicUrl)).replace(/</g, '\\u003c');
  const tags = [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:type" content="product" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    ...(image ? [`<meta property="og:image" content="${escapeHtml(image)}" />`] : []),
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<script type="application/ld+json">${json}</script>`,
  ].join('\n    ');
  // Replacer functions, not replacement strings: a product text containing $` $' $& or $1 must be
  // inserted as written, not expanded into other parts of the page.
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(description)}" />`,
    )
    .replace('</head>', () => `    ${tags}\n  </head>`);
}

export function sitemapXml(publicUrl: string, products: Array<{ id: string; updatedAt: string }>): string {
  const urls = [
    ...SITEMAP_PAGES.map((p) => `  <url><loc>${escapeXml(publicUrl + p)}</loc></url>`),
    ...products.map(
      (p) =>
        `  <url><loc>${escapeXml(`${publicUrl}/products/${p.id}`)}</loc><lastmod>${escapeXml(p.updatedAt)}</lastmod></url>`,
    ),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    // The back office stays out of search results; its sign-in page may be found (the longest
    // matching rule wins, RFC 9309).
    'Allow: /admin/login',
    'Disallow: /admin',
    'Disallow: /profile',
    'Disallow: /api/',
    'Disallow: /success',
    'Disallow: /orders/',
    'Disallow: /verify-email',
    'Disallow: /confirm-email',
    'Disallow: /reset-password',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
