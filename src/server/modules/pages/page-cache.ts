import { randomBytes } from 'node:crypto';
import { routeMatcher } from '#common/routes';
import { PreparedCache } from '#server/lib/prepared-body';
import type { PreparedPage } from '#server/lib/prepared-page';
import { AUTH_COOKIE_PREFIX } from '../auth/better-auth';
import type { EventHub } from '../events/event-hub';

/**
 * Storefront pages as every anonymous visitor gets them, rendered once and served from memory
 * (rendering one costs 36-200 ms of CPU, a cached JSON answer about 2 ms).
 *
 * - **What**: GET and HEAD of the pages below, from a request with no auth cookie and no
 *   Authorization header, when the page rendered whole (every query answered within the data
 *   budget, no render error: PageRenderer's `whole()`) with status 200. Never a 404, a 503, a
 *   redirect, a page without its data, nor anything for a signed-in visitor, whose page reads
 *   their session.
 * - **Key**: the path, the query's parameters in a fixed order (the same filters in another order
 *   are one page; the page reads its parameters, never the raw query) and the shop's own cookies
 *   (`aelo-*`: the consent flags, from which the server renders the prompts a visitor still has
 *   to answer). Nothing else of the request reaches the HTML: the data comes from the public API,
 *   whose anonymous answers do not depend on the visitor.
 * - **Nonce**: pages are rendered with NONCE_PLACEHOLDER as their CSP nonce; each response gets
 *   its own nonce in its place (PreparedPage), the one its Content-Security-Policy header names.
 * - **Fresh**: dropped whole on every `catalog` live event (as the catalogue's JSON cache, which the
 *   page's data comes from) and when the event stream had a gap; rebuilt in the background once
 *   REFRESH_AFTER_MS old (a lost notice, the ticker's market figures, the shop's token info), and
 *   never served once SERVE_AT_MOST_MS old (a page nobody asked for a while is rendered afresh).
 *   The hydration state carries the time its data was read; the browser fetches again what is
 *   older than its stale time (30 s for the products and the ticker, lib/query-client.ts), so a
 *   page served at most 20 s old leaves its first load 10 s before it would fetch its data twice.
 * - **Bounded**: an LRU of at most `maxEntries` pages (a crawler varying query strings).
 */
export const PAGE_CACHE_MAX_ENTRIES = 200;
const REFRESH_AFTER_MS = 5_000;
const SERVE_AT_MOST_MS = 20_000;

/**
 * The nonce a cached page is rendered with: long and random, so it cannot occur in a page's content
 * by chance, and new in every process.
 */
export const NONCE_PLACEHOLDER = `nonce-placeholder-${randomBytes(24).toString('hex')}`;

/** Pages the same for every anonymous visitor. Not: one-time links (reset, verification), an order's. */
const CACHEABLE_PAGES = [
  '/',
  '/products/:id',
  '/about',
  '/faq',
  '/shipping',
  '/terms',
  '/privacy',
  '/contact',
  '/how-to-buy',
  '/login',
  '/forgot-password',
  '/admin/login',
].map(routeMatcher);

/** The shop's own first-party cookies (the consent flags): part of the key. */
const SHOP_COOKIE = /^aelo-/;
/** A key longer than this is someone's experiment, not a page: rendered without the cache. */
const MAX_KEY_LENGTH = 2048;

export interface PageCache {
  /** The cache key of a request, or undefined when its page must be rendered for it alone. */
  keyOf(request: Request): string | undefined;
  /** The page for `key`, from the cache or `load` (shared by concurrent requests; see PreparedCache). */
  get(key: string, load: () => Promise<PreparedPage>): Promise<PreparedPage>;
  has(key: string): boolean;
  readonly size: number;
  invalidate(): void;
  close(): void;
}

export function createPageCache(events: EventHub, maxEntries = PAGE_CACHE_MAX_ENTRIES): PageCache {
  const cache = new PreparedCache<PreparedPage>(maxEntries, REFRESH_AFTER_MS, undefined, SERVE_AT_MOST_MS);
  const unsubscribe = events.subscribe(['catalog'], () => cache.invalidate(), {
    onGap: () => cache.invalidate(),
  });
  return {
    keyOf,
    get: (key, load) => cache.get(key, load),
    has: (key) => cache.has(key),
    get size() {
      return cache.size;
    },
    invalidate: () => cache.invalidate(),
    close() {
      unsubscribe();
      cache.invalidate();
    },
  };
}

function keyOf(request: Request): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (request.headers.has('authorization')) return undefined;
  const url = new URL(request.url);
  if (!CACHEABLE_PAGES.some((matches) => matches(url.pathname))) return undefined;
  const shopCookies: string[] = [];
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const cookie = part.trim();
    const name = cookie.split('=', 1)[0] ?? '';
    if (isAuthCookie(name)) return undefined;
    if (SHOP_COOKIE.test(name)) shopCookies.push(cookie);
  }
  // Sorted by name only: of two cookies of one name the page reads the first, so they keep their order.
  shopCookies.sort((a, b) => {
    const [nameA = '', nameB = ''] = [a.split('=', 1)[0], b.split('=', 1)[0]];
    return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
  });
  const params = new URLSearchParams(url.search);
  params.sort();
  const query = params.toString();
  const key = `${url.pathname}${query ? `?${query}` : ''} ${shopCookies.join('; ')}`;
  return key.length > MAX_KEY_LENGTH ? undefined : key;
}

function isAuthCookie(name: string): boolean {
  const bare = name.replace(/^__(Secure|Host)-/, '');
  return bare.startsWith(`${AUTH_COOKIE_PREFIX}.`);
}
