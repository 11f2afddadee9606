import type { FormFailure, SignInStepResult } from './form-results';

/** What the email flows' route actions answer (their action data). Kept without zod. */

/** Under 'Confirm new password' when the two differ. */
export const PASSWORDS_DIFFER = 'Passwords do not match';

export type ForgotPasswordResult = { sent: true } | { email: string; failure: FormFailure };

/** Done: every session ended, this browser's too. */
export type ResetPasswordResult = { done: true; sessionChanged: true } | { failure: FormFailure };

export type VerifyEmailMode = 'set' | 'current';

export type VerifyEmailResult =
  | SignInStepResult
  | { step: 'password'; mode: VerifyEmailMode; failure: FormFailure }
  /** Confirmed, but not signed in here (the sign-in after it failed). */
  | { step: 'done'; sessionChanged: true };

/** Done: the account's email changed, and whatever showed the old one loads again. */
export type ConfirmEmailChangeResult = { done: true; sessionChanged: true } | { failure: FormFailure };
