import { isAPIError } from 'better-auth/api';
import { verifyJWT } from 'better-auth/crypto';
import { z } from 'zod';
import { EMAIL_CHANGE_TEXTS } from '#common/schemas/auth';
import { isUniqueViolation } from '#server/db/errors';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import type { MailService, OutgoingMail } from '../mail/mail.service';
import { emailChangedNotice, emailChangeMail } from '../mail/mail-templates';
import type { AccountChangeLimit } from './account-change-limit';
import type { createAuthRepository } from './auth.repository';
import { withoutClientIp, type BetterAuth } from './better-auth';

/**
 * Changing the account's email on better-auth's `changeEmail`: it makes the link's token (signed,
 * naming the account, its current and its new address, for the 24 hours of
 * `emailVerification.expiresIn`) and hands it to `sendVerificationEmail`, which writes our mail to
 * the new address through the outbox (`emailChangeLinkMail`); opening the link confirms through its
 * `verifyEmail`, which changes the address only while the account still has the address the token
 * names, so an old link cannot undo a later change, nor work twice. Ours, because better-auth does
 * not do it:
 * - the request needs the password (checked by better-auth's `verifyPassword`), is limited per
 *   user (account-change-limit.ts), and a taken address is a 409 (better-auth answers it as if a link went out);
 * - the link works in any browser, without a session (the new inbox may be elsewhere);
 * - only a change-of-address token for the account and address the link names is taken: a sign-up
 *   confirmation token must never confirm an address here without its password step (see
 *   auth-email.ts: the hijack of an account through its confirmation);
 * - the new address counts as confirmed once its link is opened (better-auth keeps the account's
 *   old flag), so orders shipped to it show; and the old address is told.
 * better-auth awaits the hook but catches what it throws: a link mail the outbox could not take is
 * logged (as an error, or a warning with the database out of reach) and the request still answers ok.
 */
export interface EmailChangeFlows {
  requestEmailChange(
    userId: string,
    input: { newEmail: string; password: string },
    headers: Headers,
  ): Promise<void>;
  confirmEmailChange(input: { user: string; email: string; token: string }): Promise<void>;
}

const DUPLICATE = 'An account with this email already exists';

/** What better-auth's change-of-address token carries (createEmailVerificationToken in changeEmail). */
const EmailChangeTokenSchema = z.object({
  email: z.string(),
  updateTo: z.string(),
  userId: z.string(),
  requestType: z.literal('change-email-verification'),
});
type EmailChangeToken = z.infer<typeof EmailChangeTokenSchema>;

/** The change a token asks for, or null for any other token (a sign-up confirmation, forged, expired). */
export async function emailChangeOf(secret: string, token: string): Promise<EmailChangeToken | null> {
  const parsed = EmailChangeTokenSchema.safeParse(await verifyJWT<unknown>(token, secret));
  return parsed.success ? parsed.data : null;
}

/** The mail to the new address with the link that confirms it (the shop's /confirm-email page). */
export function emailChangeLinkMail(
  publicUrl: string,
  change: EmailChangeToken,
  token: string,
): OutgoingMail {
  const query = new URLSearchParams({ user: change.userId, email: change.updateTo, token });
  return emailChangeMail(change.updateTo, `${publicUrl}/confirm-email?${query}`, token);
}

export function createEmailChangeFlows(deps: {
  auth: BetterAuth;
  repo: ReturnType<typeof createAuthRepository>;
  mail: MailService;
  changeLimit: AccountChangeLimit;
  secret: string;
  publicUrl: string;
  log: Logger;
}): EmailChangeFlows {
  const { auth, repo } = deps;
  const badLink = () => new AppError('VALIDATION_FAILED', EMAIL_CHANGE_TEXTS.badLink);

  return {
    async requestEmailChange(userId, { newEmail, password }, headers) {
      await deps.changeLimit.consume('change-email', userId);
      const account = await repo.findEmailStatus(userId);
      if (!account) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
      const forwarded = withoutClientIp(headers);
      try {
        await auth.api.verifyPassword({ headers: forwarded, body: { password } });
      } catch (err) {
        if (isAPIError(err) && err.statusCode === 401)
          throw new AppError('UNAUTHENTICATED', 'Not authenticated');
        // Wrong, or the account has no password.
        if (isAPIError(err) && err.statusCode === 400) {
          throw new AppError('VALIDATION_FAILED', 'Invalid password', { password: 'Invalid password' });
        }
        throw err;
      }
      if (newEmail === account.email) {
        throw new AppError('VALIDATION_FAILED', EMAIL_CHANGE_TEXTS.same, {
          newEmail: EMAIL_CHANGE_TEXTS.same,
        });
      }
      if (await repo.findUserByEmail(newEmail)) throw new AppError('CONFLICT', DUPLICATE);
      // The link goes out through sendVerificationEmail (better-auth.ts, authMailer).
      await auth.api.changeEmail({ headers: forwarded, body: { newEmail } });
    },

    async confirmEmailChange({ user, email, token }) {
      const change = await emailChangeOf(deps.secret, token);
      if (!change || change.userId !== user || change.updateTo !== email) throw badLink();
      try {
        // No session: the link works in any browser.
        await auth.api.verifyEmail({ query: { token } });
      } catch (err) {
        // Someone else confirmed this address first.
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', DUPLICATE);
        // Not the account's address any more (a later change, or this link used), or no account.
        if (isAPIError(err)) throw badLink();
        throw err;
      }
      await repo.markEmailVerified(user, email);
      deps.log.info({ userId: user }, 'account email changed');
      await deps.mail.enqueue(emailChangedNotice(change.email, email, token, deps.publicUrl));
    },
  };
}
