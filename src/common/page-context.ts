/**
 * What the server hands the web app's request handler for each page request (React Router's load
 * context): the contract between src/server/modules/pages and src/web/app's loaders and entry.
 */
export type PageContext = {
  /** The CSP nonce of this response's scripts. */
  nonce: string | undefined;
  /** The shop's public origin (canonical URLs, structured data). */
  publicUrl: string;
  /** The local demo ledger runs: every page says its payments are not real. */
  demoLedger: boolean;
  /** The shop's name (SHOP_NAME). */
  shopName: string;
  /**
   * The shop's API in process, as the visitor (their cookies, address and origin): for actions that
   * need the answer's headers (a session cookie to pass on). Queries go through the web API client,
   * which the server points at the same place.
   */
  fetchApi: (path: string, init?: RequestInit) => Promise<Response>;
  /** Called when rendering failed or a page's data did not arrive (the page is then never cached). */
  markIncomplete: () => void;
};
