import { formText } from '#web/lib/form-data';

/**
 * What the sign-in pages' route actions answer (their action data) and the little checks both the
 * browser and the action make before a code goes to the API. Kept without zod: the sign-in pages
 * load their schemas only when a form is first used (api/auth-schemas.ts).
 */

/** A refused form: the message above it (none when only fields are wrong) and each field's message. */
export interface FormFailure {
  message?: string | undefined;
  fields?: Record<string, string> | undefined;
}

export type TwoFactorKind = 'totp' | 'backup';

/**
 * The sign-in's later steps, the same on /login, /admin/login and /verify-email: the code of the
 * authenticator app (or a backup code), or the code mailed after many failed sign-ins.
 */
export type SignInStepResult =
  | { step: 'two-factor'; kind: TwoFactorKind; failure?: FormFailure | undefined }
  | {
      step: 'sign-in-code';
      email: string;
      failure?: FormFailure | undefined;
      /** 'Send a new code' was answered: a new code is on its way if the password is right. */
      resent?: boolean | undefined;
    };

/** /login: the email and password form (either mode), or a later step. */
export type LoginResult =
  | SignInStepResult
  | {
      step: 'credentials';
      mode: 'sign-in' | 'sign-up';
      email: string;
      failure?: FormFailure | undefined;
      /** Sign-up answered but signing in did not: the address had an account, its owner got a mail. */
      checkEmail?: boolean | undefined;
    };

/** /admin/login: the form with its red banner, or a later step. */
export type AdminLoginResult =
  | SignInStepResult
  | {
      step: 'credentials';
      email: string;
      failure?: FormFailure | undefined;
      /** Signed in, but not as an admin: this browser's session changed all the same. */
      sessionChanged?: boolean | undefined;
    };

/** Spec: the admin sign-in shows the service's error message; non-standard failures show this. */
export const ADMIN_LOGIN_FALLBACK = 'An error occurred';

/** Which form of a page a post is for (a hidden `intent` field, or the button pressed). */
export const INTENT = 'intent';

/** Without spaces, as people copy codes from a mail or an app. */
export function normalizeCode(code: string): string {
  return code.replace(/\s/g, '');
}

/** The message for a two-factor code that cannot be right, or undefined. */
export function twoFactorCodeProblem(kind: TwoFactorKind, code: string): string | undefined {
  if (kind === 'totp') {
    return /^\d{6}$/.test(code) ? undefined : 'Enter the 6-digit code from your authenticator app';
  }
  return code.length >= 6 ? undefined : 'Enter a backup code';
}

/** The schema's message for a mailed sign-in code that is not 6 digits (SIGN_IN_CODE_FORMAT_MESSAGE). */
export const SIGN_IN_CODE_FORMAT_MESSAGE = 'Enter the 6-digit code from the email';

export function signInCodeProblem(code: string): string | undefined {
  return /^\d{6}$/.test(code) ? undefined : SIGN_IN_CODE_FORMAT_MESSAGE;
}

export function isTwoFactorKind(value: string): value is TwoFactorKind {
  return value === 'totp' || value === 'backup';
}

/**
 * What a sign-in step shows when its post got no usable answer (a dropped connection, a proxy's
 * error page): the same step with the page's own failure message; undefined for other posts.
 */
export function unansweredStep(form: FormData): SignInStepResult | undefined {
  const intent = form.get(INTENT);
  if (intent === 'two-factor' || intent === 'two-factor-kind') {
    const kind = formText(form, 'kind');
    return {
      step: 'two-factor',
      kind: isTwoFactorKind(kind) ? kind : 'totp',
      failure: { message: 'Failed to verify the code' },
    };
  }
  if (intent === 'sign-in-code' || intent === 'resend-code') {
    return {
      step: 'sign-in-code',
      email: formText(form, 'email'),
      failure: { message: 'Failed to sign in' },
    };
  }
  return undefined;
}
