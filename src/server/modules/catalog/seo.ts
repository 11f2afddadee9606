import { categoryLabel, genderLabel, type Product } from '#common/schemas/product';

/** Static pages listed in the sitemap, besides one URL per product. */
export const SITEMAP_PAGES = ['/', '/about', '/faq', '/shipping', '/terms', '/privacy', '/how-to-buy'];

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
const escapeXml = escapeHtml;

function absolute(url: string, publicUrl: string): string {
  return /^https?:\/\//i.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** A plain-text description of at most 160 characters for meta tags. */
export function productMetaDescription(p: Product): string {
  const base = p.description.trim() || `${p.brand} ${p.title}, pre-loved and authenticated.`;
  const text = `${base} ${genderLabel(p.gender)} ${categoryLabel(p.category).replace(/^(Womens|Mens) /, '')}.`
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}...` : text;
}

/** schema.org Product with one Offer, for search engines and link previews. */
export function productJsonLd(p: Product, publicUrl: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': `${publicUrl}/products/${p.id}`,
    name: p.title,
    description: productMetaDescription(p),
    brand: { '@type': 'Brand', name: p.brand },
    category: categoryLabel(p.category),
    image: p.images.map((img) => absolute(img.url, publicUrl)),
    sku: p.id,
    itemCondition: 'https://schema.org/UsedCondition',
    offers: {
      '@type': 'Offer',
      url: `${publicUrl}/products/${p.id}`,
      priceCurrency: 'USD',
      price: (p.priceCents / 100).toFixed(2),
      availability: p.quantity > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/UsedCondition',
    },
  };
}

/**
 * Puts a product's title, description, canonical URL, Open Graph tags and JSON-LD into the SPA's
 * index.html, so a shared product link previews and indexes well. JSON-LD is data, not script:
 * CSP does not run it, and `<` is escaped so it cannot close the tag.
 */
export function injectProductHead(html: string, p: Product, publicUrl: string): string {
  const title = `${p.title} — ${p.brand} | Aelo`;
  const description = productMetaDescription(p);
  const url = `${publicUrl}/products/${p.id}`;
  const image = p.images[0] ? absolute(p.images[0].url, publicUrl) : undefined;
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
