import type { RouteConfigEntry } from '@react-router/dev/routes';
import { describe, expect, it } from 'vitest';
import { FORM_POST_ROUTES, SPA_ROUTE_PATTERNS } from '#common/routes';
import routes from './routes';

/** Every path the route table answers, as '/a/:b' patterns ('*' for an area's catch-all). */
function flatten(entries: readonly RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path === undefined ? parent : `${parent}/${entry.path}`.replace(/\/+/g, '/');
    const here = entry.index || (entry.path !== undefined && !entry.children) ? [own || '/'] : [];
    return [...here, ...flatten(entry.children ?? [], own)];
  });
}

describe('the web app route table (routes.ts)', () => {
  it("declares exactly the shop's pages and form-post paths, plus a 404 page per area", () => {
    const declared = flatten(routes);
    const catchAlls = declared.filter((p) => p.endsWith('*'));
    expect(catchAlls.sort()).toEqual(['/*', '/admin/*', '/profile/*']);
    const pages = declared.filter((p) => !p.endsWith('*'));
    // '/profile/*' in the server's table stands for the account area's nested pages.
    const nested = pages.filter((p) => p.startsWith('/profile/'));
    expect(nested.length).toBeGreaterThan(0);
    const expected = [...SPA_ROUTE_PATTERNS.filter((p) => p !== '/profile/*'), ...FORM_POST_ROUTES];
    expect(pages.filter((p) => !p.startsWith('/profile/')).sort()).toEqual(expected.sort());
    expect(new Set(pages).size).toBe(pages.length);
  });
});
