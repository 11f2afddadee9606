import { CONSENT_STORAGE_KEYS, useCookieConsent, useStoredFlag } from '../hooks/use-stored-flag';
import { CookieNotice, DisclaimerModal } from './first-visit-prompts';

/**
 * The cookie notice and the disclaimer, for a visitor who has not answered them yet. The server
 * renders them from the request's cookies (a first visit sees the disclaimer with the first
 * paint), so their code ships with the storefront layout: the page hydrates with them in place.
 */
export function ConsentPrompts() {
  const cookieConsent = useCookieConsent();
  const disclaimer = useStoredFlag(CONSENT_STORAGE_KEYS.disclaimerAccepted);
  return (
    <>
      {cookieConsent === null ? <CookieNotice /> : null}
      {disclaimer === null || disclaimer === false ? <DisclaimerModal /> : null}
    </>
  );
}
