import { TriangleAlert } from 'lucide-react';
import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';

/**
 * While the local demo ledger runs (LOCAL_LEDGER, src/server/config.ts), every page says its
 * payments are not real: rendered by the root layout on the server, so it is in the HTML of every
 * page, storefront, account and back office, before any script. A named region (a landmark screen
 * readers list), not an <aside>: the admin's and the account's side panels are the pages'
 * complementary landmarks. Its look, and the app's fixed and sticky top bars moved below it, are
 * in app/styles.css (.demo-ledger-banner).
 */
export function DemoLedgerBanner() {
  return (
    <section className="demo-ledger-banner" aria-label="Demo ledger notice">
      <p className="demo-ledger-banner__text">
        <TriangleAlert className="demo-ledger-banner__icon" aria-hidden="true" focusable="false" />
        <strong className="demo-ledger-banner__headline">{DEMO_LEDGER_TEXTS.headline}</strong>
        <span className="demo-ledger-banner__detail"> {DEMO_LEDGER_TEXTS.detail}</span>
      </p>
    </section>
  );
}
