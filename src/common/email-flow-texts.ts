/**
 * What the email flows (password reset, email confirmation) tell the visitor. Kept apart from the
 * auth schemas, without zod, so a page that only shows a text (the account area's confirm-your-email
 * banner) does not load the schemas and zod with it.
 */
export const EMAIL_FLOW_TEXTS = {
  resetRequested:
    'If an account exists for this address, a link to reset its password is on its way. It works for one hour.',
  resetDone: 'Your password has been changed. Sign in with the new one.',
  verified: 'Your email address is confirmed.',
  verificationSent: 'A new confirmation link is on its way.',
} as const;
