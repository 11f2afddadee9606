import { EMAIL_CHANGE_TEXTS } from '#common/schemas/auth';
import { AppError } from '#server/lib/app-error';
import type { Logger } from '#server/lib/logger';
import type { RateLimiter } from '#server/lib/rate-limiter';
import { signLink, verifyLink } from '#server/lib/signed-links';
import type { MailService } from '../mail/mail.service';
import { emailChangedNotice, emailChangeMail } from '../mail/mail-templates';
import { UniqueViolationError, type createAuthRepository } from './auth.repository';
import type { PasswordHasher } from './better-auth';

/** A new address's confirmation link works this long. */
export const EMAIL_CHANGE_TTL_MS = 24 * 3_600_000;
const PURPOSE = 'change-email';
const DUPLICATE = 'An account with this email already exists';

/**
 * Changing the account's email needs the password and a confirmation from the new address: the
 * link (signed over the user, the current and the new address, 24 hours) changes it only while the
 * account still has the address it had when the link was made, so an old link cannot undo a later
 * change. The old address is told. Orders shipped to the new address show once it is confirmed,
 * which it then is.
 */
export interface EmailChangeFlows {
  requestEmailChange(userId: string, input: { newEmail: string; password: string }): Promise<void>;
  confirmEmailChange(input: { user: string; email: string; token: string }): Promise<void>;
}

export function createEmailChangeFlows(deps: {
  repo: ReturnType<typeof createAuthRepository>;
  passwords: PasswordHasher;
  mail: MailService;
  rateLimiter: RateLimiter;
  secret: string;
  publicUrl: string;
  log: Logger;
}): EmailChangeFlows {
  const { repo } = deps;
  const subject = (userId: string, current: string, next: string) => `${userId}\n${current}\n${next}`;

  return {
    async requestEmailChange(userId, { newEmail, password }) {
      await deps.rateLimiter.consume(
        'change-email',
        userId,
        { max: 5, windowSeconds: 900 },
        'Too many attempts. Please wait a few minutes and try again.',
      );
      const account = await repo.findEmailStatus(userId);
      const hash = await repo.findPasswordHash(userId);
      if (!account) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
      if (hash === null || !(await deps.passwords.verify(hash, password))) {
        throw new AppError('VALIDATION_FAILED', 'Invalid password', { password: 'Invalid password' });
      }
      if (newEmail === account.email) {
        throw new AppError('VALIDATION_FAILED', EMAIL_CHANGE_TEXTS.same, {
          newEmail: EMAIL_CHANGE_TEXTS.same,
        });
      }
      if (await repo.findUserByEmail(newEmail)) throw new AppError('CONFLICT', DUPLICATE);
      const token = signLink(
        deps.secret,
        PURPOSE,
        subject(userId, account.email, newEmail),
        new Date(Date.now() + EMAIL_CHANGE_TTL_MS),
      );
      const query = new URLSearchParams({ user: userId, email: newEmail, token });
      await deps.mail.enqueue(emailChangeMail(newEmail, `${deps.publicUrl}/confirm-email?${query}`, token));
    },

    async confirmEmailChange({ user, email, token }) {
      const account = await repo.findEmailStatus(user);
      if (!account || !verifyLink(deps.secret, PURPOSE, subject(user, account.email, email), token)) {
        throw new AppError('VALIDATION_FAILED', EMAIL_CHANGE_TEXTS.badLink);
      }
      try {
        await repo.updateEmail(user, email);
      } catch (err) {
        if (err instanceof UniqueViolationError) throw new AppError('CONFLICT', DUPLICATE);
        throw err;
      }
      deps.log.info({ userId: user }, 'account email changed');
      await deps.mail.enqueue(emailChangedNotice(account.email, email, token, deps.publicUrl));
    },
  };
}
