import { verifyJWT } from 'better-auth/crypto';
import { createEmailVerificationToken } from 'better-auth/api';
import { z } from 'zod';
import {
  VERIFY_EMAIL_TEXTS,
  type VerifyEmailAccount,
  type VerifyEmailInput,
  type VerifyEmailResponse,
} from '#common/schemas/auth';
import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { createRateLimiter } from '#server/db/rate-limiter';
import type { MailService, OutgoingMail } from '../mail/mail.service';
import { passwordResetMail, signUpAttemptMail, verificationMail } from '../mail/mail-templates';
import { createAuthRepository } from './auth.repository';
import { emailChangeLinkMail, emailChangeOf } from './auth-email-change';
import type { AuthRequestContext, AuthResult } from './auth.types';
import { forwardRequest, readJson, type BetterAuth, type PasswordHasher } from './better-auth';
import { createPasswordResetLimits, type ResetRequester } from './password-reset-limits';
import { assertStrongPassword } from './password-policy';

/**
 * The account's email flows on better-auth's verification tokens: the verification mail sent at
 * sign-up (and on request), confirming it, and the password reset (a link that works once, for an
 * hour, and signs the account out everywhere). Mail goes through the outbox (mail module).
 *
 * Confirming an address is what matches guest orders (placed with it) to the account, so it cannot
 * be a click alone: anyone may create an account with someone else's address and keep a session
 * on it. The link's page names the account and asks for a password step; only with it does the
 * server, in one transaction, mark the address confirmed and end every session of the account
 * (with 'set': the new password replaces the creator's, and two-factor they set up is turned off),
 * then sign the confirmer in through better-auth's own sign-in.
 */

/** How long a confirmation link works. */
export const VERIFICATION_TTL_SECONDS = 24 * 3600;

export const EMAIL_FLOW_MESSAGES = {
  badVerification: 'This confirmation link is invalid or has expired. Sign in and ask for a new one.',
  badReset: 'This reset link is invalid or has expired. Ask for a new one.',
  rateLimited: 'Too many emails asked for. Please wait a few minutes and try again.',
} as const;

/**
 * The confirmation mail of an account made with a paid order at checkout (not through better-auth's
 * sign-up): a token of the same kind better-auth mails at sign-up (bound to the account's id).
 */
export async function checkoutAccountVerificationMail(
  links: { publicUrl: string; secret: string },
  email: string,
  account?: { id: string; createdAt?: Date },
): Promise<OutgoingMail> {
  const token = await createEmailVerificationToken(
    links.secret,
    email,
    undefined,
    VERIFICATION_TTL_SECONDS,
    account ? { userId: account.id } : undefined,
  );
  return verificationMail(email, token, links.publicUrl, account?.createdAt ?? new Date());
}

interface MailedUser {
  id: string;
  email: string;
  emailVerified: boolean;
  createdAt: Date;
}

/** Sends better-auth's tokens as the shop's mails (wired into better-auth's configuration). */
export function authMailer(mail: MailService, publicUrl: string, secret: string) {
  return {
    async verification(user: { email: string; createdAt: Date }, token: string) {
      // better-auth's changeEmail mails the new address's link through the same hook.
      const change = await emailChangeOf(secret, token);
      if (change) {
        await mail.enqueue(emailChangeLinkMail(publicUrl, change, token));
        return;
      }
      await mail.enqueue(verificationMail(user.email, token, publicUrl, new Date(user.createdAt)));
    },
    async reset(user: { email: string }, token: string) {
      await mail.enqueue(passwordResetMail(user.email, token, publicUrl));
    },
    /**
     * Someone signed up with an address that has an account (sign-up answered as for a new one).
     * Not yet confirmed: a fresh confirmation link, whose mail names the account and its date (the
     * address's owner can take it over by setting a password); confirmed: a notice to its owner.
     */
    async signUpWithExistingEmail(user: MailedUser) {
      if (!user.emailVerified) {
        const token = await createEmailVerificationToken(
          secret,
          user.email,
          undefined,
          VERIFICATION_TTL_SECONDS,
          {
            userId: user.id,
          },
        );
        await mail.enqueue(verificationMail(user.email, token, publicUrl, new Date(user.createdAt)));
        return;
      }
      const hour = new Date().toISOString().slice(0, 13);
      await mail.enqueue(signUpAttemptMail(user.email, publicUrl, hour));
    },
  };
}

export type AuthMailer = ReturnType<typeof authMailer>;

export interface EmailFlows {
  /** Whether the account's email is confirmed (orders matched by email show only then). */
  emailStatus(userId: string): Promise<{ email: string; verified: boolean }>;
  /** Mails a new confirmation link to a signed-in account (limited per account). */
  resendVerification(userId: string): Promise<void>;
  /** The account a confirmation link names (400 when the link is invalid or expired). */
  verificationAccount(token: string): Promise<VerifyEmailAccount>;
  /**
   * Confirms the address with the link's token and the password step: ends every session of the
   * account and signs the confirmer in (Set-Cookie). Nothing changes unless the step succeeds.
   */
  verifyEmail(input: VerifyEmailInput, request: AuthRequestContext): Promise<AuthResult<VerifyEmailResponse>>;
  /** Mails a reset link when the address has an account; answers the same either way. */
  requestPasswordReset(email: string, requester: ResetRequester): Promise<void>;
  resetPassword(token: string, password: string): Promise<void>;
}

/** What a confirmation token carries (better-auth's createEmailVerificationToken). */
const VerificationTokenSchema = z.object({
  email: z.email(),
  updateTo: z.string().optional(),
  userId: z.string().optional(),
});

export function createEmailFlows(deps: {
  auth: BetterAuth;
  config: Config;
  database: Database;
  log: Logger;
  passwords: PasswordHasher;
}): EmailFlows {
  const { auth, config, database, log, passwords } = deps;
  const repo = createAuthRepository(database.db);
  const limiter = createRateLimiter(database.db);
  const mailRule = { max: 3, windowSeconds: 600 };
  const resetLimits = createPasswordResetLimits(database.db, deps.config);
  const publicOrigin = new URL(config.publicUrl).origin;
  const badLink = () => new AppError('VALIDATION_FAILED', EMAIL_FLOW_MESSAGES.badVerification);

  /**
   * The account a confirmation token names: the token checked with better-auth's own JWT helper
   * (signature with the auth secret, expiry), then the account as better-auth's verify-email
   * endpoint finds it (by the address; a token bound to an account id matches that account only).
   * An email-change token (`updateTo`) is not a confirmation link.
   */
  async function accountOfToken(token: string) {
    const payload = await verifyJWT<unknown>(token, config.authSecret);
    const parsed = VerificationTokenSchema.safeParse(payload);
    if (!parsed.success || parsed.data.updateTo !== undefined) throw badLink();
    const account = await repo.findAccountByEmail(parsed.data.email.toLowerCase());
    if (!account || (parsed.data.userId !== undefined && parsed.data.userId !== account.id)) throw badLink();
    return account;
  }

  return {
    async emailStatus(userId) {
      const user = await repo.findEmailStatus(userId);
      if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in');
      return user;
    },

    async resendVerification(userId) {
      const user = await this.emailStatus(userId);
      if (user.verified) return;
      await limiter.consume('verify-email', userId, mailRule, EMAIL_FLOW_MESSAGES.rateLimited);
      await auth.api.sendVerificationEmail({ body: { email: user.email } });
    },

    async verificationAccount(token) {
      const account = await accountOfToken(token);
      return { email: account.email, createdAt: account.createdAt.toISOString(), verified: account.verified };
    },

    async verifyEmail(input, request) {
      const account = await accountOfToken(input.token);
      if (account.verified) throw new AppError('VALIDATION_FAILED', VERIFY_EMAIL_TEXTS.alreadyVerified);
      let newPasswordHash: string | null = null;
      if (input.mode === 'set') {
        assertStrongPassword(input.password, 'password', [account.email]);
        newPasswordHash = await passwords.hash(input.password);
      } else {
        // Only the link's holder gets here; still, a few tries per account and window.
        await limiter.consume('verify-email-password', account.id, { max: 10, windowSeconds: 600 });
        const hash = await repo.findPasswordHash(account.id);
        if (!hash || !(await passwords.verify(hash, input.password))) {
          throw new AppError('VALIDATION_FAILED', `password: ${VERIFY_EMAIL_TEXTS.wrongPassword}`, {
            password: VERIFY_EMAIL_TEXTS.wrongPassword,
          });
        }
      }
      // Verified, every session of the account gone (and the new password set), or nothing.
      if (!(await repo.confirmEmail(account.id, newPasswordHash)))
        throw new AppError('VALIDATION_FAILED', VERIFY_EMAIL_TEXTS.alreadyVerified);
      log.info({ userId: account.id, mode: input.mode }, 'email confirmed; every earlier session ended');

      // A session made now, after the confirmation, by better-auth's own sign-in (two-factor kept
      // with 'current' asks its code next, as at sign-in).
      const res = await auth.handler(
        forwardRequest(publicOrigin, '/sign-in/email', request, {
          email: account.email,
          password: input.password,
        }),
      );
      const body = (await readJson(res)) as { twoFactorRedirect?: boolean } | null;
      if (!res.ok) {
        log.warn({ status: res.status }, 'sign-in after the email confirmation failed');
        return { body: { email: account.email, signedIn: false, twoFactorRequired: false }, setCookies: [] };
      }
      const twoFactorRequired = body?.twoFactorRedirect === true;
      return {
        body: { email: account.email, signedIn: !twoFactorRequired, twoFactorRequired },
        setCookies: res.headers.getSetCookie(),
      };
    },

    async requestPasswordReset(email, requester) {
      const address = email.trim().toLowerCase();
      // Per requester, never per victim; the owner's devices only by themselves.
      await resetLimits.admit(address, requester, EMAIL_FLOW_MESSAGES.rateLimited);
      // better-auth answers the same whether or not the address has an account (no enumeration).
      await auth.api.requestPasswordReset({ body: { email: address, redirectTo: '/reset-password' } });
    },

    async resetPassword(token, password) {
      assertStrongPassword(password, 'password');
      try {
        await auth.api.resetPassword({ body: { token, newPassword: password } });
      } catch (err) {
        log.info({ err }, 'password reset refused');
        throw new AppError('VALIDATION_FAILED', EMAIL_FLOW_MESSAGES.badReset);
      }
    },
  };
}
