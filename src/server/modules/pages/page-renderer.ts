import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';

/**
 * The storefront's HTML: the built index.html with the page rendered on the server inside #root
 * (dist/ssr/entry-server.js, built from src/web/entry-server.tsx), the state the browser hydrates
 * from, and preload links for the page's own chunks and the font, so nothing waits on anything.
 */

/** The part of dist/ssr/entry-server.js the server uses (its types live in the web build). */
interface SsrModule {
  setApiTransport(transport: (url: string, init: RequestInit) => Promise<Response>): void;
  render(
    request: Request,
    options: { nonce?: string; dataBudgetMs: number; onError: (error: unknown) => void },
  ): Promise<
    | { kind: 'client' }
    | { kind: 'redirect'; location: string }
    | { kind: 'page'; stream: ReadableStream<Uint8Array>; state: unknown; pageFiles: string[] }
  >;
}

type ApiFetch = (request: Request) => Promise<Response>;

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

export interface PageParts {
  /** The document up to and including `<div id="root">`. */
  head: string;
  /** `</div>`, the hydration state and the rest of the document. */
  tail: string;
}

/**
 * The page's HTML, or where it sends the visitor instead (a signed-in admin on its sign-in page).
 * `whole()`, asked once the body has been read: every query the page ran on the server answered
 * (2xx) within the data budget and is in the hydration state, and React rendered without an error;
 * only such a page is the page every visitor of the same kind would get (the page cache keeps no
 * other).
 */
export type RenderedPage = { body: ReadableStream<Uint8Array>; whole: () => boolean } | { redirect: string };

const ROOT_MARKER = '<div id="root"></div>';
/** What the page's queries may take on the server before the HTML goes out without them. */
const DATA_BUDGET_MS = 400;
/** Headers the in-process API calls carry over from the visitor's request. */
const FORWARDED_HEADERS = ['cookie', 'x-forwarded-for', 'user-agent', 'accept-language'];

/** The id of the page's loader script, which the first frame waits for (scriptsAfterPaint). */
const LOADER_ID = 'page-loader';

export class PageRenderer {
  private readonly requestScope = new AsyncLocalStorage<ApiFetch>();
  private ssr: Promise<SsrModule | null> | undefined;
  private manifest: Record<string, ManifestChunk> | undefined;
  private fontHref: string | null | undefined;
  private readonly styles = new Map<string, string | null>();

  constructor(
    private readonly webDir: string,
    private readonly ssrEntry: string,
    private readonly logger: Logger,
  ) {}

  /** The server-side renderer, or null when it was not built (pages are then client-rendered). */
  private loadSsr(): Promise<SsrModule | null> {
    this.ssr ??= (async () => {
      if (!existsSync(this.ssrEntry)) {
        this.logger.warn({ entry: this.ssrEntry }, 'no server renderer built: pages render in the browser');
        return null;
      }
      const mod = (await import(pathToFileURL(this.ssrEntry).href)) as SsrModule;
      mod.setApiTransport((url, init) => {
        const apiFetch = this.requestScope.getStore();
        if (!apiFetch) return Promise.reject(new Error('API call outside a page render'));
        return apiFetch(new Request(new URL(url, 'http://in-process'), init));
      });
      return mod;
    })();
    return this.ssr;
  }

  private readManifest(): Record<string, ManifestChunk> {
    if (this.manifest) return this.manifest;
    const file = path.join(this.webDir, '.vite', 'manifest.json');
    this.manifest = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>)
      : {};
    return this.manifest;
  }

  /**
   * The Inter face every page uses first, cut to the characters the shop writes (the full faces
   * load only when a glyph needs them; scripts/subset-font.mjs).
   */
  private font(): string | null {
    if (this.fontHref !== undefined) return this.fontHref;
    const dir = path.join(this.webDir, 'assets');
    const file = existsSync(dir)
      ? readdirSync(dir).find((name) => /^inter-core-wght-normal-[\w-]+\.woff2$/.test(name))
      : undefined;
    this.fontHref = file ? `/assets/${file}` : null;
    return this.fontHref;
  }

  /** The pages' chunks and everything they import (the page's code besides the entry's). */
  pageChunks(pageFiles: readonly string[]): string[] {
    const manifest = this.readManifest();
    const scripts = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || scripts.has(chunk.file)) return;
      scripts.add(chunk.file);
      chunk.imports?.forEach(visit);
    };
    for (const file of pageFiles) visit(`src/web/app/routes/${file}.tsx`);
    return [...scripts].map((file) => `/${file}`);
  }

  /**
   * The stylesheet written into the page instead of linked: nothing blocks the first paint, and the
   * page's scripts do not compete with a stylesheet for the first bytes of a slow link (the whole
   * stylesheet is about 12 KB compressed).
   */
  inlineStyles(html: string): string {
    return html.replace(
      /<link rel="stylesheet"[^>]*href="(\/assets\/[\w.-]+\.css)"[^>]*>/g,
      (tag, href: string) => {
        if (!this.styles.has(href)) {
          const file = path.join(this.webDir, href);
          const css = existsSync(file) ? readFileSync(file, 'utf8') : null;
          this.styles.set(href, css === null || css.includes('</style') ? null : css);
        }
        const css = this.styles.get(href);
        return css ? `<style data-href="${href}">${css}</style>` : tag;
      },
    );
  }

  /**
   * The page is readable before any script runs, so its code waits for the first contentful paint:
   * the document, the stylesheet and the font have a slow link to themselves until the page is on
   * screen; then the entry and every chunk the page needs are fetched at once (modulepreload, no
   * waterfall) and the page hydrates. Returns the document without its script tags, and the loader
   * to append.
   */
  scriptsAfterPaint(
    html: string,
    pageFiles: readonly string[],
    nonce: string | undefined,
  ): { html: string; loader: string } {
    // The entry, and the bundler's runtime before it when the entry awaits at its top level
    // (lib/yield-to-browser.ts): the entry imports it, so they may load in any order.
    const entries = [...html.matchAll(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g)];
    if (entries.length === 0 || !nonce) return { html, loader: '' };
    const scripts = entries.map((entry) => entry[1]!);
    const preloads = new Set<string>();
    let rest = entries.reduce((page, entry) => page.replace(entry[0], ''), html);
    rest = rest.replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_tag, href: string) => {
      preloads.add(href);
      return '';
    });
    for (const href of this.pageChunks(pageFiles)) if (!scripts.includes(href)) preloads.add(href);
    const font = this.font();
    if (font) {
      rest = rest.replace(
        '</head>',
        () => `  <link rel="preload" href="${font}" as="font" type="font/woff2" crossorigin />\n  </head>`,
      );
    }
    // The first frame waits until the loader below has been parsed (and run): the page is drawn
    // once, whole, with its dialogs already modal, instead of half-parsed, then restyled and laid
    // out again after the first paint. The server sends the page whole (renderWhole), so this waits
    // on parsing, not on the network. Browsers without render-blocking `expect` links paint as before.
    rest = rest.replace(
      '</head>',
      () => `  <link rel="expect" href="#${LOADER_ID}" blocking="render" />\n  </head>`,
    );
    // The loader, first: while the page is still being parsed and has not been styled yet, the
    // dialogs the server rendered open (a first visit's disclaimer, a shared product) become modal,
    // as Modal in components/ui/dialog.tsx would make them on hydration, marked as on screen since
    // the first paint (no entrance, see styles.css). Done on hydration, it restyles the whole page
    // (everything behind a modal dialog turns inert): 20 ms of main thread on this machine, 80-130
    // ms on Lighthouse's phone. Here it is part of the first style. Then the code, started once the
    // browser reports the first contentful paint (a frame can be drawn before it is on screen), or
    // a second after the first frame where paint timing is not reported.
    const loader =
      `<script id="${LOADER_ID}" nonce="${nonce}">(function(){var d=document,started=0;` +
      `d.querySelectorAll("#root dialog[open]").forEach(function(g){g.setAttribute("data-server-open","");g.removeAttribute("open");g.showModal()});` +
      `function load(){if(started++)return;` +
      `${JSON.stringify([...preloads])}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;d.head.appendChild(l)});` +
      `${JSON.stringify(scripts)}.forEach(function(h){var s=d.createElement("script");s.type="module";s.crossOrigin="";s.src=h;d.head.appendChild(s)})}` +
      `try{new PerformanceObserver(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(load)}}).observe({type:"paint",buffered:true})}catch(e){}` +
      `requestAnimationFrame(function(){setTimeout(load,1000)})})()</script>`;
    return { html: rest, loader };
  }

  /** Splits a document (index.html, maybe with a product's head) around #root. */
  static parts(html: string): PageParts {
    const at = html.indexOf(ROOT_MARKER);
    if (at < 0) throw new Error('index.html has no <div id="root"></div>');
    return {
      head: `${html.slice(0, at)}<div id="root">`,
      tail: `</div>${html.slice(at + ROOT_MARKER.length)}`,
    };
  }

  /**
   * The page for `request`, rendered on the server; null when it is a client-rendered page (the back
   * office), the renderer is not built, or rendering failed (logged): the caller then sends the shell.
   */
  async render(
    request: Request,
    html: string,
    apiFetch: ApiFetch,
    nonce: string | undefined,
  ): Promise<RenderedPage | null> {
    const ssr = await this.loadSsr();
    if (!ssr) return null;
    const forwarded = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) forwarded.set(name, value);
    }
    let apiCalls = 0;
    let failed = false;
    const scopedFetch: ApiFetch = async (apiRequest) => {
      const headers = new Headers(apiRequest.headers);
      forwarded.forEach((value, name) => headers.set(name, value));
      const url = new URL(apiRequest.url);
      apiCalls++;
      const res = await apiFetch(
        new Request(new URL(url.pathname + url.search, request.url), { headers, method: 'GET' }),
      );
      if (!res.ok) failed = true;
      return res;
    };
    let result: Awaited<ReturnType<SsrModule['render']>>;
    try {
      result = await this.requestScope.run(scopedFetch, () =>
        ssr.render(request, {
          nonce,
          dataBudgetMs: DATA_BUDGET_MS,
          onError: (error) => {
            failed = true;
            this.logger.error({ err: error, path: new URL(request.url).pathname }, 'page render failed');
          },
        }),
      );
    } catch (error) {
      this.logger.error({ err: error, path: new URL(request.url).pathname }, 'page render failed');
      return null;
    }
    if (result.kind === 'client') return null;
    if (result.kind === 'redirect') return { redirect: result.location };

    const page = this.scriptsAfterPaint(this.inlineStyles(html), result.pageFiles, nonce);
    const { head, tail } = PageRenderer.parts(page.html);
    const state = JSON.stringify(result.state).replace(/</g, '\\u003c');
    // Each query makes one API call; one not in the state was late (the data budget) or failed.
    const answered = successfulQueries(result.state);
    const encoder = new TextEncoder();
    const reader = result.stream.getReader();
    const logger = this.logger;
    let started = false;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(head));
        }
        try {
          const { done, value } = await reader.read();
          // Cancelled while the read was pending (the caller sends another page): nothing to send.
          if (cancelled) return;
          if (!done) {
            controller.enqueue(value);
            return;
          }
          controller.enqueue(
            encoder.encode(
              tail.replace(
                '</div>',
                () =>
                  `</div>\n    <script type="application/json" id="ssr-state">${state}</script>\n    ${page.loader}`,
              ),
            ),
          );
          controller.close();
        } catch (error) {
          logger.error({ err: error }, 'page stream failed');
          controller.error(error);
        }
      },
      cancel(reason) {
        cancelled = true;
        void reader.cancel(reason);
      },
    });
    return { body, whole: () => !failed && answered >= apiCalls };
  }
}

/** How many queries the hydration state holds with their data (a partial page holds fewer). */
function successfulQueries(state: unknown): number {
  const queries = (state as { queries?: { queries?: Array<{ state?: { status?: string } }> } } | null)
    ?.queries?.queries;
  return queries?.filter((query) => query.state?.status === 'success').length ?? 0;
}
