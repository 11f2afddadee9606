import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext, type HandleErrorFunction } from 'react-router';
import type { PageContext } from '#common/page-context';
import { NonceProvider } from '#web/lib/nonce';

export { setApiTransport } from '#web/lib/api-client';

/** Longest a page may take to render before the server gives up on it (a stuck query, say). */
const RENDER_TIMEOUT_MS = 10_000;
export const streamTimeout = RENDER_TIMEOUT_MS;

/**
 * Every page's HTML, streamed with React's renderToPipeableStream once every Suspense boundary is
 * complete (onAllReady): the HTML reads whole without JavaScript (crawlers, link previews, a shopper
 * before the code arrives) and needs none of React's inline swap scripts; it still goes out chunk
 * by chunk. A shopper who leaves meanwhile aborts it.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: PageContext,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(
      <StrictMode>
        <NonceProvider value={loadContext.nonce}>
          <ServerRouter context={routerContext} url={request.url} nonce={loadContext.nonce} />
        </NonceProvider>
      </StrictMode>,
      {
        nonce: loadContext.nonce,
        // Never outline a large finished boundary (the product modal) into a later, script-swapped chunk.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=UTF-8');
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          loadContext.markIncomplete();
          console.error(error);
        },
      },
    );
    request.signal.addEventListener('abort', () => abort(request.signal.reason), { once: true });
    setTimeout(abort, RENDER_TIMEOUT_MS + 1_000);
  });
}

/** A loader's or action's unexpected error: logged by the server (the page shows its error boundary). */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  console.error(error);
};
