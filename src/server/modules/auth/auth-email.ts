import type { Config } from '#server/config';
import type { Database } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import { createRateLimiter } from '#server/lib/rate-limiter';
import { createEmailVerificationToken } from 'better-auth/api';
import type { MailService, OutgoingMail } from '../mail/mail.service';
import { passwordResetMail, verificationMail } from '../mail/mail-templates';
import { createAuthRepository } from './auth.repository';
import { createPasswordResetLimits, type ResetRequester } from './password-reset-limits';
import type { BetterAuth } from './better-auth';
import { assertUncommonPassword } from './password-policy';

/**
 * The account's email flows on better-auth's verification tokens: the verification mail sent at
 * sign-up (and on request), confirming it, and the password reset (a link that works once, for an
 * hour, and signs the account out everywhere). Mail goes through the outbox (mail module).
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
 * sign-up): a token of the same kind better-auth verifies, mailed like sign-up's.
 */
export async function checkoutAccountVerificationMail(
  links: { publicUrl: string; secret: string },
  email: string,
): Promise<OutgoingMail> {
  const token = await createEmailVerificationToken(links.secret, email, undefined, VERIFICATION_TTL_SECONDS);
  return verificationMail(email, token, links.publicUrl);
}

/** Sends better-auth's tokens as the shop's mails (wired into better-auth's configuration). */
export function authMailer(mail: MailService, publicUrl: string) {
  return {
    async verification(user: { email: string }, token: string) {
      await mail.enqueue(verificationMail(user.email, token, publicUrl));
    },
    async reset(user: { email: string }, token: string) {
      await mail.enqueue(passwordResetMail(user.email, token, publicUrl));
    },
  };
}

export type AuthMailer = ReturnType<typeof authMailer>;

export interface EmailFlows {
  /** Whether the account's email is confirmed (orders matched by email show only then). */
  emailStatus(userId: string): Promise<{ email: string; verified: boolean }>;
  /** Mails a new confirmation link to a signed-in account (limited per account). */
  resendVerification(userId: string): Promise<void>;
  verifyEmail(token: string): Promise<void>;
  /** Mails a reset link when the address has an account; answers the same either way. */
  requestPasswordReset(email: string, requester: ResetRequester): Promise<void>;
  resetPassword(token: string, password: string): Promise<void>;
}

export function createEmailFlows(deps: {
  auth: BetterAuth;
  config: Config;
  database: Database;
  log: Logger;
}): EmailFlows {
  const { auth, database, log } = deps;
  const repo = createAuthRepository(database.db);
  const limiter = createRateLimiter(database.db);
  const mailRule = { max: 3, windowSeconds: 600 };
  const resetLimits = createPasswordResetLimits(database.db, deps.config);

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

    async verifyEmail(token) {
      try {
        await auth.api.verifyEmail({ query: { token } });
      } catch (err) {
        log.info({ err }, 'email verification refused');
        throw new AppError('VALIDATION_FAILED', EMAIL_FLOW_MESSAGES.badVerification);
      }
    },

    async requestPasswordReset(email, requester) {
      const address = email.trim().toLowerCase();
      // Per requester, never per victim; the owner's devices only by themselves.
      await resetLimits.admit(address, requester, EMAIL_FLOW_MESSAGES.rateLimited);
      // better-auth answers the same whether or not the address has an account (no enumeration).
      await auth.api.requestPasswordReset({ body: { email: address, redirectTo: '/reset-password' } });
    },

    async resetPassword(token, password) {
      assertUncommonPassword(password, 'password');
      try {
        await auth.api.resetPassword({ body: { token, newPassword: password } });
      } catch (err) {
        log.info({ err }, 'password reset refused');
        throw new AppError('VALIDATION_FAILED', EMAIL_FLOW_MESSAGES.badReset);
      }
    },
  };
}
