import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';
import { PASSWORD_COMMON_MESSAGE, PASSWORD_MIN_SCORE, PASSWORD_WEAK_MESSAGE } from '#common/schemas/auth';
import { AppError } from '#server/lib/app-error';

/**
 * OWASP ASVS 2.1.7: refuse passwords that are on lists of breached or common passwords. The list
 * is zxcvbn-ts's common-passwords dictionary (about 49,000 entries, lower case, ranked from leaked
 * password sets), loaded once, compared without regard to case. It lives on the server only.
 *
 * A password someone chooses for themselves (sign-up, checkout's Create Account, a reset, the
 * email confirmation's new password, a password change) must also score PASSWORD_MIN_SCORE or more
 * with zxcvbn (its English and common dictionaries, keyboard patterns, dates, repeats, sequences,
 * l33t), and the refusal carries zxcvbn's feedback: what makes it guessable and what to do.
 */
let common: ReadonlySet<string> | undefined;
let zxcvbn: ZxcvbnFactory | undefined;

function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(zxcvbnCommon.dictionary['passwords-common']);
  return common;
}

function scorer(): ZxcvbnFactory {
  zxcvbn ??= new ZxcvbnFactory({
    translations: zxcvbnEn.translations,
    graphs: zxcvbnCommon.adjacencyGraphs,
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
  });
  return zxcvbn;
}

/** Words a guesser tries first for this shop and this account. */
const SHOP_WORDS = ['aelo', 'shop', 'store'];

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}

/**
 * Why the password is too easy to guess (PASSWORD_WEAK_MESSAGE and zxcvbn's feedback), or null
 * when it is strong enough. `userInputs`: the account's email and name, counted as known words.
 */
export function weakPasswordFeedback(password: string, userInputs: readonly string[] = []): string | null {
  if (isCommonPassword(password)) return PASSWORD_COMMON_MESSAGE;
  const inputs = [...SHOP_WORDS];
  for (const input of userInputs) {
    const value = input.trim().toLowerCase();
    if (!value) continue;
    inputs.push(value, ...value.split(/[@._+-]+/).filter((part) => part.length >= 3));
  }
  const result = scorer().check(password, inputs);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter((text): text is string =>
    Boolean(text),
  );
  return [PASSWORD_WEAK_MESSAGE, ...advice].join(' ');
}

/** 400 on `field` (default `password`) when the password is a common one. */
export function assertUncommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new AppError('VALIDATION_FAILED', `${field}: ${PASSWORD_COMMON_MESSAGE}`, {
      [field]: PASSWORD_COMMON_MESSAGE,
    });
  }
}

/**
 * 400 on `field` (default `password`) when the password is common or zxcvbn scores it below
 * PASSWORD_MIN_SCORE, with the feedback as the field's message.
 */
export function assertStrongPassword(
  password: string,
  field = 'password',
  userInputs: readonly string[] = [],
): void {
  const feedback = weakPasswordFeedback(password, userInputs);
  if (feedback) throw new AppError('VALIDATION_FAILED', `${field}: ${feedback}`, { [field]: feedback });
}
