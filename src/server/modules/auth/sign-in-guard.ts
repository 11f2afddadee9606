import type { SignInInput } from '#common/schemas/auth';
import type { Config } from '#server/config';
import type { Db } from '#server/db/client';
import { AppError } from '#server/lib/app-error';
import type { MailService } from '../mail/mail.service';
import type { createAuthRepository } from './auth.repository';
import type { PasswordHasher } from './better-auth';
import { createDeviceCookies, type DeviceCookies } from './device-cookie';
import { createSignInCodes } from './sign-in-code';
import { createSignInThrottle } from './sign-in-throttle';

/** The answer of a guarded sign-in without its code: the same whether or not the password was right. */
export const SIGN_IN_CODE_REQUIRED_MESSAGE =
  'We emailed you a 6-digit sign-in code if the password is right. Enter it with your password: after many failed sign-ins, a new device needs both.';
/** The answer of a guarded sign-in with a code, when the code or the password is not right. */
export const SIGN_IN_CODE_INVALID_MESSAGE =
  'That code did not work. Check the newest code we emailed you and your password, or ask for a new code.';

/**
 * Sign-in's guard, in front of better-auth's password check (auth.service.ts `signIn`):
 *
 * 1. The email failed too often from this client: 429 while it waits (sign-in-throttle.ts).
 * 2. A device the account signed in on before (device-cookie.ts) goes on to the password.
 * 3. The account failed SIGN_IN_ACCOUNT_CODE_AFTER times from anywhere, or this client failed on
 *    many accounts: a new device needs, besides the right password, a code mailed to the account
 *    (sign-in-code.ts). Without a code, a right password mails one; every answer is the same
 *    401 SIGN_IN_CODE_REQUIRED whether the password was right or not, and each counts as a failed
 *    sign-in (so no later 429 tells either), so neither a guesser spread over many addresses nor
 *    one behind a shared address learns a password, while the owner, who reads the mail, is
 *    never locked out.
 * 4. Otherwise the password alone, as always.
 */
export interface SignInGuard {
  /** Throws 429 or SIGN_IN_CODE_REQUIRED, or lets the sign-in through to the password check. */
  admit(input: SignInInput, request: { headers: Headers; clientIp: string | undefined }): Promise<void>;
  /** A wrong password (better-auth's 401). */
  failed(email: string, clientIp: string | undefined): Promise<void>;
  /** Signed in (or on to two-factor): counts cleared; the device cookie to set when the account is known. */
  succeeded(
    email: string,
    request: { headers: Headers; clientIp: string | undefined },
    userId: string | null,
  ): Promise<string[]>;
  devices: DeviceCookies;
}

export function createSignInGuard(deps: {
  config: Config;
  db: Db;
  repo: ReturnType<typeof createAuthRepository>;
  passwords: PasswordHasher;
  mail: MailService;
  publicUrl: string;
}): SignInGuard {
  const { config, repo, passwords } = deps;
  const throttle = createSignInThrottle(deps.db, config.signInRateLimit, config.networkLimitMultiplier);
  const devices = createDeviceCookies({ secret: config.authSecret, secure: config.secureCookies });
  const codes = createSignInCodes({
    db: deps.db,
    mail: deps.mail,
    secret: config.authSecret,
    publicUrl: deps.publicUrl,
  });
  // A hash to check unknown emails against, so that they take as long as known ones.
  let decoy: Promise<string> | undefined;

  async function passwordIsRight(userId: string | undefined, password: string): Promise<boolean> {
    const hash = userId ? await repo.findPasswordHash(userId) : null;
    if (hash) return passwords.verify(hash, password);
    await passwords.verify(await (decoy ??= passwords.hash('not a password of anyone')), password);
    return false;
  }

  return {
    devices,

    async admit(input, request) {
      const state = await throttle.check(input.email, request.clientIp);
      if (!state.clientSlowed && !state.accountGuarded) return;
      const user = await repo.findUserByEmail(input.email.trim().toLowerCase());
      if (user && devices.accountsOf(request.headers).includes(user.id)) return;

      const right = await passwordIsRight(user?.id, input.password);
      if (user && right) {
        if (input.code && (await codes.consume(user.id, input.code))) return;
        if (!input.code) await codes.send(user);
      }
      // Not signed in, whatever the reason, counts as a failure: a right password must not show
      // as a count that did not grow (the next attempt's 429 would tell).
      await throttle.recordFailure(input.email, request.clientIp);
      throw new AppError(
        'SIGN_IN_CODE_REQUIRED',
        input.code ? SIGN_IN_CODE_INVALID_MESSAGE : SIGN_IN_CODE_REQUIRED_MESSAGE,
      );
    },

    failed: (email, clientIp) => throttle.recordFailure(email, clientIp),

    async succeeded(email, request, userId) {
      await throttle.recordSuccess(email, request.clientIp);
      return userId ? [devices.remember(request.headers, userId)] : [];
    },
  };
}
