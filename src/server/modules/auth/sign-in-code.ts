import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '#server/db/client';
import { createCounters } from '#server/db/counters';
import { RateLimitedError } from '#server/lib/app-error';
import { createRateLimiter } from '#server/db/rate-limiter';
import type { MailService, OutgoingMail } from '../mail/mail.service';
import { mailOf } from '../mail/mail-templates';
import { createVerificationsRepository } from './verifications.repository';

/**
 * One-time sign-in codes, mailed to the account when a sign-in from a new device needs one
 * (sign-in-guard.ts): 6 digits, for SIGN_IN_CODE_TTL_SECONDS, used once, at most
 * SIGN_IN_CODE_TRIES wrong tries each. Kept in better-auth's `verifications` table as an HMAC
 * (the server's secret: 10^6 codes are no secret without it), one live code per account: a new
 * one replaces the last. At most SIGN_IN_CODE_MAILS mails per account per window.
 */

export const SIGN_IN_CODE_TTL_SECONDS = 600;
export const SIGN_IN_CODE_TRIES = 5;
const SIGN_IN_CODE_MAILS = { max: 3, windowSeconds: 600 };

const identifierOf = (userId: string) => `sign-in-code:${userId}`;

export function signInCodeMail(to: string, code: string, publicUrl: string): OutgoingMail {
  return mailOf(`sign-in-code:${randomUUID()}`, to, 'sign-in-code', {
    code,
    url: `${publicUrl}/forgot-password`,
  });
}

export interface SignInCodes {
  /** Makes a new code for the account (replacing its last) and mails it, unless it had enough mails lately. */
  send(user: { id: string; email: string }): Promise<void>;
  /** Whether `code` is the account's live code; a right code is used up, so are too many wrong tries. */
  consume(userId: string, code: string): Promise<boolean>;
}

export function createSignInCodes(deps: {
  db: Db;
  mail: MailService;
  secret: string;
  publicUrl: string;
}): SignInCodes {
  const { db } = deps;
  const codes = createVerificationsRepository(db);
  const counters = createCounters(db);
  const limiter = createRateLimiter(db);
  const ttlMs = SIGN_IN_CODE_TTL_SECONDS * 1000;

  const hashOf = (userId: string, code: string) =>
    createHmac('sha256', deps.secret).update(`sign-in-code\n${userId}\n${code}`).digest('hex');

  return {
    async send(user) {
      try {
        await limiter.consume('sign-in-code-mail', user.id, SIGN_IN_CODE_MAILS);
      } catch (err) {
        // Enough codes mailed for now: the last one still works. The answer stays the same.
        if (err instanceof RateLimitedError) return;
        throw err;
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = new Date();
      await codes.replaceByIdentifier({
        id: randomUUID(),
        identifier: identifierOf(user.id),
        value: hashOf(user.id, code),
        expiresAt: new Date(now.getTime() + ttlMs),
        createdAt: now,
      });
      await deps.mail.enqueue(signInCodeMail(user.email, code, deps.publicUrl));
    },

    async consume(userId, code) {
      const row = await codes.findLiveByIdentifier(identifierOf(userId), new Date());
      if (!row) return false;
      const tries = await counters.bumpCounter(`sign-in-code-try|${row.id}`, ttlMs, Date.now());
      const expected = Buffer.from(row.value);
      const given = Buffer.from(hashOf(userId, code));
      const right =
        tries <= SIGN_IN_CODE_TRIES && expected.length === given.length && timingSafeEqual(expected, given);
      if (!right && tries < SIGN_IN_CODE_TRIES) return false;
      // Used (or out of tries): gone. Of two requests with the right code, only one deletes it.
      const deleted = await codes.deleteById(row.id);
      await counters.deleteCounter(`sign-in-code-try|${row.id}`);
      return right && deleted;
    },
  };
}
