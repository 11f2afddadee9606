/** The two first-visit prompts, loaded together by ConsentPrompts (consent-prompts.tsx). */
export { CookieNotice } from './cookie-notice';
export { DisclaimerModal } from './disclaimer-modal';
