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
    | { kind: 'redirect'; response: Response }
    | { kind: 'page'; status: number; stream: ReadableStream<Uint8Array>; state: unknown; routeIds: string[] }
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

export interface RenderedPage {
  status: number;
  body: ReadableStream<Uint8Array>;
}

const ROOT_MARKER = '<div id="root"></div>';
/** What the page's queries may take on the server before the HTML goes out without them. */
const DATA_BUDGET_MS = 400;
/** Headers the in-process API calls carry over from the visitor's request. */
const FORWARDED_HEADERS = ['cookie', 'x-forwarded-for', 'user-agent', 'accept-language'];

export class PageRenderer {
  private readonly requestScope = new AsyncLocalStorage<ApiFetch>();
  private ssr: Promise<SsrModule | null> | undefined;
  private manifest: Record<string, ManifestChunk> | undefined;
  private fontHref: string | null | undefined;

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

  /** The latin Inter face every page uses first (the others load when a glyph needs them). */
  private font(): string | null {
    if (this.fontHref !== undefined) return this.fontHref;
    const dir = path.join(this.webDir, 'assets');
    const file = existsSync(dir)
      ? readdirSync(dir).find((name) => /^inter-latin-wght-normal-[\w-]+\.woff2$/.test(name))
      : undefined;
    this.fontHref = file ? `/assets/${file}` : null;
    return this.fontHref;
  }

  /** Preload links for the pages' chunks (and what they import) and for the font. */
  preloadLinks(routeIds: readonly string[], html = ''): string {
    const manifest = this.readManifest();
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || scripts.has(chunk.file)) return;
      scripts.add(chunk.file);
      chunk.css?.forEach((css) => styles.add(css));
      chunk.imports?.forEach(visit);
    };
    for (const id of routeIds) visit(`src/web/app/routes/${id}.tsx`);
    // What index.html links already (the entry and its imports) is not linked twice.
    const fresh = (href: string) => !html.includes(`/${href}"`);
    const links = [...styles]
      .filter(fresh)
      .map((href) => `<link rel="stylesheet" crossorigin href="/${href}" />`);
    links.push(
      ...[...scripts].filter(fresh).map((href) => `<link rel="modulepreload" crossorigin href="/${href}" />`),
    );
    const font = this.font();
    if (font) links.unshift(`<link rel="preload" href="${font}" as="font" type="font/woff2" crossorigin />`);
    return links.join('\n    ');
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
   * The page for `request`, rendered on the server; null when it is a client-rendered page (admin,
   * account), the renderer is not built, or rendering failed (logged): the caller then sends the shell.
   */
  async render(
    request: Request,
    html: string,
    apiFetch: ApiFetch,
    nonce: string | undefined,
  ): Promise<RenderedPage | Response | null> {
    const ssr = await this.loadSsr();
    if (!ssr) return null;
    const forwarded = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) forwarded.set(name, value);
    }
    const scopedFetch: ApiFetch = (apiRequest) => {
      const headers = new Headers(apiRequest.headers);
      forwarded.forEach((value, name) => headers.set(name, value));
      const url = new URL(apiRequest.url);
      return apiFetch(
        new Request(new URL(url.pathname + url.search, request.url), { headers, method: 'GET' }),
      );
    };
    let result: Awaited<ReturnType<SsrModule['render']>>;
    try {
      result = await this.requestScope.run(scopedFetch, () =>
        ssr.render(request, {
          nonce,
          dataBudgetMs: DATA_BUDGET_MS,
          onError: (error) =>
            this.logger.error({ err: error, path: new URL(request.url).pathname }, 'page render failed'),
        }),
      );
    } catch (error) {
      this.logger.error({ err: error, path: new URL(request.url).pathname }, 'page render failed');
      return null;
    }
    if (result.kind === 'client') return null;
    if (result.kind === 'redirect') return result.response;

    const { head, tail } = PageRenderer.parts(html);
    const preloads = this.preloadLinks(result.routeIds, html);
    const state = JSON.stringify(result.state).replace(/</g, '\\u003c');
    const encoder = new TextEncoder();
    const reader = result.stream.getReader();
    const logger = this.logger;
    let started = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(head.replace('</head>', () => `    ${preloads}\n  </head>`)));
        }
        try {
          const { done, value } = await reader.read();
          if (!done) {
            controller.enqueue(value);
            return;
          }
          controller.enqueue(
            encoder.encode(
              tail.replace(
                '</div>',
                () => `</div>\n    <script type="application/json" id="ssr-state">${state}</script>`,
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
        void reader.cancel(reason);
      },
    });
    return { status: result.status, body };
  }
}
