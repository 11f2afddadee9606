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

const escapeXml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

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
