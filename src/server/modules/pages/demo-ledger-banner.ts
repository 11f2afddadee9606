import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';

/**
 * The local demo ledger's banner (LOCAL_LEDGER, src/server/config.ts), written by the server into
 * every page's document before #root while the ledger runs: storefront and account pages rendered on
 * the server, the admin's client shell and its sign-in page alike, with no code in the browser
 * (the landing page's JavaScript budget has no room, and the notice must not wait for a script).
 * Outside #root, React never touches it; a navigation inside the app keeps it. A named region (a
 * landmark screen readers list), not an <aside>: the admin's and the account's side panels are the
 * pages' complementary landmarks. Its look, and the
 * app's fixed and sticky top bars moved below it, are in src/web/app/styles.css (.demo-ledger-banner).
 */

const ROOT_MARKER = '<div id="root">';

/** An amber warning sign (lucide's triangle-alert), decorative. */
const ICON =
  '<svg class="demo-ledger-banner__icon" aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3"/><path d="M12 9v4"/><path d="M12 17h.01"/></svg>';

export const DEMO_LEDGER_BANNER_HTML =
  `<section class="demo-ledger-banner" aria-label="Demo ledger notice">` +
  `<p class="demo-ledger-banner__text">${ICON}` +
  `<strong class="demo-ledger-banner__headline">${DEMO_LEDGER_TEXTS.headline}</strong>` +
  `<span class="demo-ledger-banner__detail"> ${DEMO_LEDGER_TEXTS.detail}</span>` +
  `</p></section>`;

/** The document with the banner before #root (unchanged when it has no #root). */
export function withDemoLedgerBanner(html: string): string {
  const at = html.indexOf(ROOT_MARKER);
  if (at < 0) return html;
  return `${html.slice(0, at)}${DEMO_LEDGER_BANNER_HTML}\n    ${html.slice(at)}`;
}
