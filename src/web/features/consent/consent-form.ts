import { z } from 'zod';
import { RETURN_FIELD, type ConsentAnswer } from './consent-post';
import { CONSENT_STORAGE_KEYS } from './hooks/use-stored-flag';

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * A posted consent form (consent-post.ts), as the consent route reads it: one answer or both, and
 * the page to go back to.
 */
export const ConsentFormSchema = z
  .object({
    [CONSENT_STORAGE_KEYS.cookieConsent]: flag.optional(),
    // Acknowledged or not shown: there is no "false" for the disclaimer.
    [CONSENT_STORAGE_KEYS.disclaimerAccepted]: z
      .literal('true')
      .transform(() => true)
      .optional(),
    [RETURN_FIELD]: z.string().max(2048).optional(),
  })
  .refine(
    (form) =>
      form[CONSENT_STORAGE_KEYS.cookieConsent] !== undefined ||
      form[CONSENT_STORAGE_KEYS.disclaimerAccepted] !== undefined,
    { message: 'No consent answer' },
  );

export interface ConsentSubmission {
  answers: ConsentAnswer[];
  /** Where the post returns to: a path of this site (safeReturnPath). */
  returnTo: string;
}

/** The answers a posted consent form carries, or null for anything else. */
export function parseConsentForm(form: FormData): ConsentSubmission | null {
  const fields: Record<string, string> = {};
  for (const name of [...Object.values(CONSENT_STORAGE_KEYS), RETURN_FIELD]) {
    const value = form.get(name);
    if (typeof value === 'string') fields[name] = value;
  }
  const parsed = ConsentFormSchema.safeParse(fields);
  if (!parsed.success) return null;
  const answers: ConsentAnswer[] = [];
  for (const key of Object.values(CONSENT_STORAGE_KEYS)) {
    const value = parsed.data[key];
    if (value !== undefined) answers.push({ key, value });
  }
  return { answers, returnTo: safeReturnPath(parsed.data[RETURN_FIELD]) };
}

const SAME_SITE = 'http://same-site.invalid';

/**
 * A return path from a form: a path of this site with its query ("/faq", "/?gender=mens"), else
 * "/". Never another origin ("//evil.example", "/\evil.example", "https://...", a path the URL
 * parser turns into one once it drops tabs and newlines).
 */
export function safeReturnPath(raw: string | undefined): string {
  if (!raw?.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(raw, SAME_SITE);
  } catch {
    return '/';
  }
  if (url.origin !== SAME_SITE) return '/';
  return `${url.pathname}${url.search}`;
}
