import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import { PASSWORD_COMMON_MESSAGE } from '#common/schemas/auth';
import { AppError } from '#server/lib/app-error';

/**
 * OWASP ASVS 2.1.7: refuse passwords that are on lists of breached or common passwords. The list
 * is zxcvbn-ts's common-passwords dictionary (about 49,000 entries, lower case, ranked from leaked
 * password sets), loaded once, compared without regard to case. It lives on the server only.
 */
let common: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(zxcvbnCommon.dictionary['passwords-common']);
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}

/** 400 on `field` (default `password`) when the password is a common one. */
export function assertUncommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new AppError('VALIDATION_FAILED', `${field}: ${PASSWORD_COMMON_MESSAGE}`, {
      [field]: PASSWORD_COMMON_MESSAGE,
    });
  }
}
