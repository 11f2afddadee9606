import { CreateAccountInputSchema } from '#common/schemas/checkout';
import type { AccountDraft } from '../stores/checkout-store';

export type AccountErrors = Partial<Record<keyof AccountDraft, string>>;

/** Validates the optional Create Account block: empty means "no account"; else 8+ characters and matching. */
export function validateAccountDraft(
  draft: AccountDraft,
): { ok: true; value: AccountDraft | null } | { ok: false; errors: AccountErrors } {
  if (draft.password === '' && draft.confirmPassword === '') return { ok: true, value: null };
  const parsed = CreateAccountInputSchema.safeParse(draft);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: AccountErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if ((key === 'password' || key === 'confirmPassword') && !errors[key]) errors[key] = issue.message;
  }
  return { ok: false, errors };
}
