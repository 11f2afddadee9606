import { z } from 'zod';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth-limits';

export { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, 'Please enter a valid email address')
  .pipe(z.email('Please enter a valid email address'));

export const PASSWORD_BLANK_MESSAGE = 'Password cannot be only spaces';
/** Shown on the password field when the server finds it on a list of common passwords. */
export const PASSWORD_COMMON_MESSAGE = 'This password is too common. Choose another.';
/**
 * Shown on the password field when zxcvbn scores it below PASSWORD_MIN_SCORE, followed by
 * zxcvbn's own feedback (its warning and suggestions), e.g. 'This password is easy to guess.
 * Repeated characters like "aaa" are easy to guess. Avoid repeated words and characters.'
 */
export const PASSWORD_WEAK_MESSAGE = 'This password is easy to guess.';
/** zxcvbn's score (0-4) a new password needs: 3 is "safely unguessable" by an online attacker. */
export const PASSWORD_MIN_SCORE = 3;

/**
 * OWASP ASVS 2.1: at least 8 characters, long passphrases welcome, no composition rules, never
 * truncated, not only spaces. The server also refuses the most common passwords and any new
 * password zxcvbn scores below PASSWORD_MIN_SCORE (modules/auth/password-policy.ts: the
 * dictionaries stay out of the browser bundle).
 */
export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((v) => v.trim() !== '', PASSWORD_BLANK_MESSAGE);

/** Shown on the sign-in code's field when what was typed is not 6 digits. */
export const SIGN_IN_CODE_FORMAT_MESSAGE = 'Enter the 6-digit code from the email';

export const SignInInputSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
  /** The one-time code mailed when the server asked for one (SIGN_IN_CODE_REQUIRED). */
  code: z
    .string()
    .transform((v) => v.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, SIGN_IN_CODE_FORMAT_MESSAGE))
    .optional(),
});
export type SignInInput = z.infer<typeof SignInInputSchema>;

export const SignUpInputSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  name: z.string().trim().max(100).optional(),
});
export type SignUpInput = z.infer<typeof SignUpInputSchema>;

export const RoleSchema = z.enum(['customer', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

export const SessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const MeResponseSchema = z.object({ user: SessionUserSchema.nullable() });
export type MeResponse = z.infer<typeof MeResponseSchema>;

/**
 * POST /api/auth/sign-in/email (the session cookie comes with it) and /api/auth/sign-up/email (no
 * session: the same answer whether or not the address already had an account; sign in next).
 */
export const AuthUserResponseSchema = z.object({ user: SessionUserSchema });
export type AuthUserResponse = z.infer<typeof AuthUserResponseSchema>;

/** POST /api/auth/sign-out (the session is deleted on the server and its cookie cleared). */
export const SignOutResponseSchema = z.object({ ok: z.literal(true) });
export type SignOutResponse = z.infer<typeof SignOutResponseSchema>;

// Email confirmation and password reset --------------------------------------------------

const TokenSchema = z.string().trim().min(1, 'This link is incomplete').max(500);

/**
 * POST /api/auth/verify-email: the confirmation link's token and the password step that must go
 * with it. 'set': a new password for the account (whoever made the account before the address was
 * proven loses it); 'current': the account's password, for the person who created it. Either way
 * every earlier session of the account ends and the confirmer is signed in.
 */
export const VerifyEmailInputSchema = z.discriminatedUnion('mode', [
  z.object({ token: TokenSchema, mode: z.literal('set'), password: PasswordSchema }),
  z.object({
    token: TokenSchema,
    mode: z.literal('current'),
    password: z.string().min(1, "Enter the account's password").max(PASSWORD_MAX_LENGTH),
  }),
]);
export type VerifyEmailInput = z.infer<typeof VerifyEmailInputSchema>;

/** GET /api/auth/verify-email?token= */
export const VerifyEmailQuerySchema = z.object({ token: TokenSchema });

/** GET /api/auth/verify-email?token=: the account a confirmation link confirms. */
export const VerifyEmailAccountSchema = z.object({
  email: z.string(),
  /** When the account was created (ISO 8601). */
  createdAt: z.string(),
  verified: z.boolean(),
});
export type VerifyEmailAccount = z.infer<typeof VerifyEmailAccountSchema>;

/** POST /api/auth/verify-email's answer (a session cookie comes with it when `signedIn`). */
export const VerifyEmailResponseSchema = z.object({
  email: z.string(),
  signedIn: z.boolean(),
  /** The account has two-factor on (kept with 'current'): its code comes next, as at sign-in. */
  twoFactorRequired: z.boolean(),
});
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponseSchema>;

export const VERIFY_EMAIL_TEXTS = {
  wrongPassword: "That is not this account's password. Set a new password instead.",
  alreadyVerified: 'This address is already confirmed. Sign in to see your orders.',
} as const;

/** POST /api/auth/forgot-password */
export const ForgotPasswordInputSchema = z.object({ email: EmailSchema });

/** POST /api/auth/reset-password */
export const ResetPasswordInputSchema = z.object({ token: TokenSchema, password: PasswordSchema });

/** GET /api/auth/email-verification: whether the signed-in account's email is confirmed. */
export const EmailStatusResponseSchema = z.object({ email: z.string(), verified: z.boolean() });
export type EmailStatusResponse = z.infer<typeof EmailStatusResponseSchema>;

// Two-factor sign-in -----------------------------------------------------------------------

/** A sign-in whose password was right, for an account with two-factor on: a code is asked next. */
export const TwoFactorChallengeSchema = z.object({ twoFactorRequired: z.literal(true) });
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallengeSchema>;

export const TotpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app');

/** POST /api/auth/two-factor/verify: the code of the sign-in's second step (or a backup code). */
export const TwoFactorVerifyInputSchema = z.object({
  code: z.string().trim().min(6, 'Enter the 6-digit code from your authenticator app').max(32),
  kind: z.enum(['totp', 'backup']).default('totp'),
});

/** POST /api/auth/two-factor/enable */
export const TwoFactorEnableInputSchema = z.object({
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
});
export const TwoFactorEnableResponseSchema = z.object({
  totpURI: z.string(),
  backupCodes: z.array(z.string()),
});
export type TwoFactorEnableResponse = z.infer<typeof TwoFactorEnableResponseSchema>;

/** POST /api/auth/two-factor/confirm: the first code from the app turns two-factor on. */
export const TwoFactorConfirmInputSchema = z.object({ code: TotpCodeSchema });

/** POST /api/auth/two-factor/disable: the password and a current code. */
export const TwoFactorDisableInputSchema = z.object({
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
  code: TotpCodeSchema,
});

export const TwoFactorStatusSchema = z.object({ enabled: z.boolean() });
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

// Signed-in devices and password change (account settings) ----------------------------------------

export const AccountSessionSchema = z.object({
  /** The session's id (not its token): names it for sign-out. */
  id: z.string(),
  current: z.boolean(),
  /** e.g. 'Chrome on macOS', from the user agent. */
  device: z.string(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;
export const AccountSessionListSchema = z.object({ sessions: z.array(AccountSessionSchema) });
export type AccountSessionList = z.infer<typeof AccountSessionListSchema>;

/** POST /api/auth/password: the current password and a new one; every other session is signed out. */
export const PasswordChangeInputSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(PASSWORD_MAX_LENGTH),
  newPassword: PasswordSchema,
});
export type PasswordChangeInput = z.infer<typeof PasswordChangeInputSchema>;

export const SESSION_TEXTS = {
  passwordChanged: 'Password changed. Your other devices have been signed out.',
  wrongPassword: 'Your current password is not right',
  samePassword: 'Choose a password different from your current one',
  othersSignedOut: 'Signed out of your other devices',
} as const;

// Changing the account's email ------------------------------------------------------------------------

/** POST /api/auth/change-email: the new address and the password; a link goes to the new address. */
export const EmailChangeInputSchema = z.object({
  newEmail: EmailSchema,
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
});
export type EmailChangeInput = z.infer<typeof EmailChangeInputSchema>;

/**
 * POST /api/auth/change-email/confirm: the link's parts. The token is better-auth's (a JWT naming
 * the account and both addresses: under 1,000 characters with two of the longest addresses).
 */
export const EmailChangeConfirmSchema = z.object({
  user: z.string().min(1).max(128),
  email: EmailSchema,
  token: z.string().min(1).max(1000),
});
export type EmailChangeConfirm = z.infer<typeof EmailChangeConfirmSchema>;

export const EMAIL_CHANGE_TEXTS = {
  sent: 'Check your new inbox: your email changes once you open the link we sent there.',
  same: 'That is already your email address',
  confirmed: 'Your email address has been changed.',
  badLink: 'This link is invalid or has expired. Ask for a new one in your settings.',
} as const;
