import { expect } from 'vitest';

/**
 * The data React Router sends with a server-rendered page (every matched route's loader data, in
 * which src/web/app/route-data.tsx puts the page's TanStack queries, dehydrated) is an encoded
 * stream in a JavaScript string literal, enqueued by inline scripts at the end of the page.
 */
const LOADER_DATA = /(streamController\.enqueue\()("(?:[^"\\]|\\.)*")(\))/g;

/**
 * The page's HTML without the query `queryKey` the server ran for it: the query is renamed in
 * the loaders' data, so the browser's cache does not have it and the page asks the API itself, as
 * when the server could not answer it within its data budget. The HTML the server rendered from
 * that answer stays, so React may report a hydration mismatch (#418) and render the page over.
 */
export function withoutLoaderQuery(html: string, queryKey: readonly unknown[]): string {
  // TanStack Query's hash of a key of strings is its JSON; in the stream it is a JSON string.
  const hash = JSON.stringify(JSON.stringify(queryKey));
  const renamed = JSON.stringify(JSON.stringify(['taken-out-by-the-test', ...queryKey]));
  let found = false;
  const edited = html.replace(LOADER_DATA, (_whole, before: string, literal: string, after: string) => {
    const stream = JSON.parse(literal) as string;
    if (stream.includes(hash)) found = true;
    return `${before}${JSON.stringify(stream.replaceAll(hash, renamed)).replaceAll('<', '\\u003c')}${after}`;
  });
  expect(found, `the query ${hash} in the page's loader data`).toBe(true);
  return edited;
}

/** What React reports when the page's HTML differs from what the browser renders (see above). */
export const HYDRATION_MISMATCH = /Minified React error #418|Hydration failed/;
