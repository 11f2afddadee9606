import { categoryLabel, genderLabel } from './catalog';
import { centsToDecimal } from './money';
import type { Product } from './schemas/product';

export function absoluteUrl(url: string, publicUrl: string): string {
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
    image: p.images.map((img) => absoluteUrl(img.url, publicUrl)),
    sku: p.id,
    itemCondition: 'https://schema.org/UsedCondition',
    offers: {
      '@type': 'Offer',
      url: `${publicUrl}/products/${p.id}`,
      priceCurrency: 'USD',
      price: centsToDecimal(p.priceCents),
      availability: p.quantity > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/UsedCondition',
    },
  };
}

/** A product page's document title (what a search result and a browser tab show). */
export function productTitle(p: Pick<Product, 'title' | 'brand'>, shopName: string): string {
  return `${p.title} — ${p.brand} | ${shopName}`;
}

/** What a product's page carries in its head: title, description, canonical URL, image, JSON-LD. */
export interface ProductHead {
  title: string;
  description: string;
  url: string;
  image: string | undefined;
  jsonLd: Record<string, unknown>;
}

export function productHead(p: Product, publicUrl: string, shopName: string): ProductHead {
  return {
    title: productTitle(p, shopName),
    description: productMetaDescription(p),
    url: `${publicUrl}/products/${p.id}`,
    image: p.images[0] ? absoluteUrl(p.images[0].url, publicUrl) : undefined,
    jsonLd: productJsonLd(p, publicUrl),
  };
}
