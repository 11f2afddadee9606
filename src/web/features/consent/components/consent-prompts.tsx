import { lazy, Suspense } from 'react';
import { CONSENT_STORAGE_KEYS, useCookieConsent, useStoredFlag } from '../hooks/use-stored-flag';

const CookieNotice = lazy(() => import('./cookie-notice').then((m) => ({ default: m.CookieNotice })));
const DisclaimerModal = lazy(() =>
  import('./disclaimer-modal').then((m) => ({ default: m.DisclaimerModal })),
);

/**
 * The cookie notice and the disclaimer, each loaded only for a visitor who has not answered it yet
 * (most page views carry neither): their code stays out of the first load.
 */
export function ConsentPrompts() {
  const cookieConsent = useCookieConsent();
  const disclaimer = useStoredFlag(CONSENT_STORAGE_KEYS.disclaimerAccepted);
  return (
    <Suspense fallback={null}>
      {cookieConsent === null ? <CookieNotice /> : null}
      {disclaimer === null || disclaimer === false ? <DisclaimerModal /> : null}
    </Suspense>
  );
}
