import { describe, expect, it } from 'vitest';
import { SPA_ROUTE_PATTERNS, isSpaRoute } from '#common/routes';
import { allRoutePaths, paths } from './paths';

describe('paths', () => {
  it('declares exactly the routes the server serves the SPA for', () => {
    const declared = allRoutePaths();
    // '/profile/*' stands for the account area's nested pages; every other pattern is one path of ours.
    const nested = declared.filter((p) => p.startsWith('/profile/'));
    const topLevel = declared.filter((p) => !p.startsWith('/profile/'));
    const expected = SPA_ROUTE_PATTERNS.filter((p) => p !== '/profile/*');
    expect([...topLevel].sort()).toEqual([...expected].sort());
    expect(nested.length).toBeGreaterThan(0);
    for (const p of nested) expect(isSpaRoute(p)).toBe(true);
  });

  it('builds hrefs the server answers with the SPA', () => {
    const hrefs = [
      paths.home.getHref(),
      paths.product.getHref('abc 1'),
      paths.admin.productEdit.getHref('p-1'),
      paths.profile.orders.getHref(),
      paths.admin.audit.getHref(),
    ];
    for (const href of hrefs) expect(isSpaRoute(href.split('?')[0]!)).toBe(true);
    expect(paths.home.getHref('rewards')).toBe('/#rewards');
    expect(paths.success.getHref('r/1')).toBe('/success?reference=r%2F1');
  });
});
