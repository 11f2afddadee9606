import { PASSWORD_MIN_LENGTH } from './auth-limits';

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
  /**
   * The web sign-up when signing in right after it did not work: the address already had an
   * account (its owner was mailed). Sign-up's own answer is the same either way.
   */
  signUpCheckEmail: 'Check your email to finish creating your account.',
  /** Under a new password's field (the server scores it with zxcvbn: 3 of 4 or more). */
  newPasswordHint: `At least ${PASSWORD_MIN_LENGTH} characters. A few uncommon words make a strong password.`,
} as const;
