import { CONSENT_STORAGE_KEYS, type ConsentStorageKey } from './hooks/use-stored-flag';

/**
 * The consent prompts' answers as a form post: each button is a submit button whose name is the
 * flag and whose value is the answer (Accept All: aelo-cookie-consent=true), and a hidden field
 * says which page the form is on. Before the app's code has arrived (or without JavaScript) the
 * form posts to the consent route (app/routes/consent.tsx, which checks it with ConsentFormSchema);
 * once live, the page reads the pressed button itself (answerOf) and stores the answer at once.
 * No zod here: this ships with every storefront page, and the buttons read are the page's own.
 */
export const CONSENT_ACTION = '/consent';
export const RETURN_FIELD = 'returnTo';

export interface ConsentAnswer {
  key: ConsentStorageKey;
  value: boolean;
}

const KEYS: readonly string[] = Object.values(CONSENT_STORAGE_KEYS);

function isConsentKey(name: string): name is ConsentStorageKey {
  return KEYS.includes(name);
}

/** The answer a pressed consent button gives, or null for any other control. */
export function answerOf(submitter: Element | null): ConsentAnswer | null {
  if (!(submitter instanceof HTMLButtonElement) || !isConsentKey(submitter.name)) return null;
  if (submitter.value === 'true') return { key: submitter.name, value: true };
  // Only the cookie notice has a "no" (Decline).
  if (submitter.value === 'false' && submitter.name === CONSENT_STORAGE_KEYS.cookieConsent) {
    return { key: submitter.name, value: false };
  }
  return null;
}
