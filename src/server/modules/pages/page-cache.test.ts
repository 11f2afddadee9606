import { describe, expect, it } from 'vitest';
import { PreparedPage } from '#server/lib/prepared-page';
import type { EventHub } from '../events/event-hub';
import { createPageCache, NONCE_PLACEHOLDER } from './page-cache';

/** An event hub whose 'catalog' notices and gaps the test sends. */
function fakeEvents() {
  const listeners: Array<{ event: () => void; gap?: () => void }> = [];
  const hub = {
    subscribe: (_topics: string[], listener: () => void, options?: { onGap?: () => void }) => {
      const entry = { event: listener, gap: options?.onGap };
      listeners.push(entry);
      return () => listeners.splice(listeners.indexOf(entry), 1);
    },
  } as unknown as EventHub;
  return {
    hub,
    notice: () => listeners.forEach((l) => l.event()),
    gap: () => listeners.forEach((l) => l.gap?.()),
  };
}

const request = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Request(`http://localhost${path}`, { method, headers });

describe('page cache', () => {
  const cache = createPageCache(fakeEvents().hub);
  const keyOf = (req: Request) => cache.keyOf(req);

  it('keys a storefront page by path, parameters in a fixed order and the consent cookies', () => {
    expect(keyOf(request('/?sort=price-asc&gender=women'))).toBe(
      keyOf(request('/?gender=women&sort=price-asc')),
    );
    expect(keyOf(request('/?gender=women'))).not.toBe(keyOf(request('/?gender=men')));
    expect(keyOf(request('/products/abc'))).not.toBe(keyOf(request('/')));
    const first = keyOf(request('/'));
    const returning = keyOf(
      request('/', { cookie: 'aelo-disclaimer-accepted=true; aelo-cookie-consent=true' }),
    );
    expect(returning).not.toBe(first);
    expect(keyOf(request('/', { cookie: 'aelo-cookie-consent=true; aelo-disclaimer-accepted=true' }))).toBe(
      returning,
    );
    // Other cookies (analytics, a load balancer's) do not change the page.
    expect(keyOf(request('/', { cookie: '_ga=GA1.1.123; lb=a' }))).toBe(first);
    expect(keyOf(request('/', {}, 'HEAD'))).toBe(first);
  });

  it('has no key for a signed-in visitor, a page with private or one-time data, or another method', () => {
    expect(keyOf(request('/', { cookie: 'shop.session_token=abc' }))).toBeUndefined();
    expect(
      keyOf(request('/', { cookie: 'aelo-cookie-consent=true; __Secure-shop.session_token=abc' })),
    ).toBeUndefined();
    expect(keyOf(request('/', { cookie: 'shop.two_factor=abc' }))).toBeUndefined();
    expect(keyOf(request('/', { authorization: 'Bearer x' }))).toBeUndefined();
    for (const path of [
      '/orders/1?token=x',
      '/reset-password?token=x',
      '/verify-email',
      '/success?reference=x',
      '/profile',
      '/admin',
      '/nope',
    ])
      expect(keyOf(request(path)), path).toBeUndefined();
    expect(keyOf(request('/', {}, 'POST'))).toBeUndefined();
    expect(keyOf(request(`/?q=${'x'.repeat(3000)}`))).toBeUndefined();
  });

  it('holds at most its number of pages, least recently used leaving first', async () => {
    const cache = createPageCache(fakeEvents().hub, 3);
    const load = (n: number) => async () => new PreparedPage(`<p>${n}</p>`, NONCE_PLACEHOLDER);
    for (let n = 0; n < 3; n++) await cache.get(`/?page=${n}`, load(n));
    await cache.get('/?page=0', load(0));
    for (let n = 3; n < 50; n++) await cache.get(`/?page=${n}`, load(n));
    expect(cache.size).toBe(3);
    expect(cache.has('/?page=49')).toBe(true);
    expect(cache.has('/?page=1')).toBe(false);
  });

  it('drops every page on a catalog notice and on a gap in the event stream', async () => {
    const events = fakeEvents();
    const cache = createPageCache(events.hub);
    const page = async () => new PreparedPage('<p>a</p>', NONCE_PLACEHOLDER);
    await cache.get('/', page);
    events.notice();
    expect(cache.size).toBe(0);
    await cache.get('/', page);
    events.gap();
    expect(cache.size).toBe(0);
    cache.close();
    await cache.get('/', page);
    events.notice();
    expect(cache.size).toBe(1);
  });
});
