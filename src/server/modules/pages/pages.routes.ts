import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context, Handler } from 'hono';
import { GUEST_ORDER_ROUTE, isSpaRoute, routeMatcher } from '#common/routes';
import type { AppDeps } from '#server/deps';
import type { AppEnv } from '#server/lib/hono-env';
import { injectProductHead } from '#server/modules/catalog/seo';
import { PageRenderer } from './page-renderer';

export interface PagesOptions {
  webDir: string;
  ssrEntry: string;
  /** The app itself: a page's queries are answered in process with the visitor's cookies. */
  apiFetch: (request: Request, c: Context<AppEnv>) => Promise<Response>;
}

const isGuestOrderPage = routeMatcher(GUEST_ORDER_ROUTE);

/**
 * Every page URL: storefront pages rendered on the server (PageRenderer), admin and account pages
 * as the client shell. A product URL gets its own head (title, description, structured data) and
 * 404 when the product does not exist; a path that is no page answers 404 with the not-found page.
 */
export function pagesHandler(deps: AppDeps, options: PagesOptions): Handler<AppEnv> {
  const renderer = new PageRenderer(options.webDir, options.ssrEntry, deps.logger);
  let indexHtml: string | undefined;
  const readIndex = () => {
    if (indexHtml !== undefined) return indexHtml;
    const file = path.join(options.webDir, 'index.html');
    if (!existsSync(file)) return undefined;
    indexHtml = readFileSync(file, 'utf8');
    return indexHtml;
  };

  return async (c) => {
    const template = readIndex();
    if (template === undefined) return c.text('The web app is not built yet: run `npm run build`.', 503);
    // A guest order's page carries the order's private details in its HTML, as its API answer
    // does: kept out of every cache like that answer. Other pages may be kept if revalidated.
    c.header('Cache-Control', isGuestOrderPage(c.req.path) ? 'no-store' : 'no-cache');
    let html = template;
    let status: 200 | 404 = isSpaRoute(c.req.path) ? 200 : 404;
    const productId = /^\/products\/([^/]+)\/?$/.exec(c.req.path)?.[1];
    if (productId) {
      const product = await deps.catalog.getProduct(safeDecode(productId)).catch(() => null);
      if (product) html = injectProductHead(template, product, deps.config.publicUrl);
      else status = 404;
    }
    // A path that is not valid percent-encoding is no page: the shell and its not-found page.
    if (!isDecodable(c.req.path)) return c.html(html, status);
    const page = await renderer.render(
      c.req.raw,
      html,
      (request) => options.apiFetch(request, c),
      c.get('secureHeadersNonce'),
    );
    if (!page) return c.html(html, status);
    if ('redirect' in page) return c.redirect(page.redirect, 302);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    return c.body(page.body, status);
  };
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURI(pathname);
    return true;
  } catch {
    return false;
  }
}

/** Percent-decoded, or the raw text when the encoding is malformed (it then matches no product). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
