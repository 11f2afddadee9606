import { replace, type ActionFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import {
  EMAIL_CHANGE_TEXTS,
  EmailChangeConfirmSchema,
  ForgotPasswordInputSchema,
  PasswordSchema,
  ResetPasswordInputSchema,
  VerifyEmailInputSchema,
  type VerifyEmailResponse,
} from '#common/schemas/auth';
import { paths } from '#web/config/paths';
import { formText } from '#web/lib/form-data';
import { actionApi, answer, failureOf, schemaFields, signInStepAction } from './form-actions.server';
import {
  PASSWORDS_DIFFER,
  type ConfirmEmailChangeResult,
  type ForgotPasswordResult,
  type ResetPasswordResult,
  type VerifyEmailResult,
} from './email-flow-results';

/**
 * The email flows' route actions (server only): 'Forgot password?', the reset link's new password,
 * the confirmation link's password step, and the new address's confirmation of an email change.
 */

export async function forgotPasswordAction({ request, context }: ActionFunctionArgs<PageContext>) {
  const form = await request.formData();
  const api = actionApi(context);
  const email = formText(form, 'email');
  const parsed = ForgotPasswordInputSchema.safeParse({ email });
  if (!parsed.success) {
    return answer<ForgotPasswordResult>(api, {
      email,
      failure: { fields: schemaFields(parsed.error.issues) },
    });
  }
  const res = await api.post('/api/auth/forgot-password', parsed.data);
  if (!res.ok) {
    return answer<ForgotPasswordResult>(api, {
      email,
      failure: failureOf(res, 'Failed to send the reset link'),
    });
  }
  return answer<ForgotPasswordResult>(api, { sent: true });
}

/** A new password typed twice: the schema's message for the first, or 'do not match' for the second. */
function newPasswordFields(form: FormData): Record<string, string> | undefined {
  const password = formText(form, 'password');
  const parsed = PasswordSchema.safeParse(password);
  if (!parsed.success) return { password: parsed.error.issues[0]?.message ?? 'Enter a password' };
  if (formText(form, 'confirm') !== password) return { confirm: PASSWORDS_DIFFER };
  return undefined;
}

/** The reset link's page: every session of the account ends, this browser's too. */
export async function resetPasswordAction({ request, context }: ActionFunctionArgs<PageContext>) {
  const form = await request.formData();
  const api = actionApi(context);
  const fields = newPasswordFields(form);
  if (fields) return answer<ResetPasswordResult>(api, { failure: { fields } });
  const parsed = ResetPasswordInputSchema.safeParse({
    token: formText(form, 'token'),
    password: formText(form, 'password'),
  });
  if (!parsed.success) {
    const fieldsOf = schemaFields(parsed.error.issues);
    return answer<ResetPasswordResult>(api, {
      failure: fieldsOf.password
        ? { fields: fieldsOf }
        : { message: fieldsOf.token ?? 'This link is incomplete' },
    });
  }
  const res = await api.post('/api/auth/reset-password', parsed.data);
  if (!res.ok) {
    return answer<ResetPasswordResult>(api, { failure: failureOf(res, 'Failed to reset the password') });
  }
  return answer<ResetPasswordResult>(api, { done: true, sessionChanged: true });
}

/**
 * The confirmation link's password step ('set': a new password; 'current': the account's). Every
 * earlier session of the account ends; this browser is signed in and goes to the account's orders,
 * or (two-factor kept with 'current') is asked for its code first.
 */
export async function verifyEmailAction({ request, context }: ActionFunctionArgs<PageContext>) {
  const form = await request.formData();
  const api = actionApi(context);
  const toOrders = () => replace(paths.profile.orders.getHref(), { headers: api.headers });
  const step = await signInStepAction<never>(form, api, toOrders);
  if (step instanceof Response) return step;
  if (step) return answer<VerifyEmailResult>(api, step);

  const mode = formText(form, 'mode') === 'current' ? 'current' : 'set';
  const fields = mode === 'set' ? newPasswordFields(form) : undefined;
  if (fields) return answer<VerifyEmailResult>(api, { step: 'password', mode, failure: { fields } });
  const parsed = VerifyEmailInputSchema.safeParse({
    token: formText(form, 'token'),
    mode,
    password: formText(form, 'password'),
  });
  if (!parsed.success) {
    const fieldsOf = schemaFields(parsed.error.issues);
    return answer<VerifyEmailResult>(api, {
      step: 'password',
      mode,
      failure: fieldsOf.password
        ? { fields: fieldsOf }
        : { message: fieldsOf.token ?? 'This link is incomplete' },
    });
  }
  const res = await api.post<VerifyEmailResponse>('/api/auth/verify-email', parsed.data);
  if (!res.ok) {
    return answer<VerifyEmailResult>(api, {
      step: 'password',
      mode,
      failure: failureOf(res, 'Failed to confirm the email address'),
    });
  }
  if (res.body.twoFactorRequired) return answer<VerifyEmailResult>(api, { step: 'two-factor', kind: 'totp' });
  if (res.body.signedIn) return toOrders();
  // Confirmed, but the sign-in after it failed: the page says to sign in by hand.
  return answer<VerifyEmailResult>(api, { step: 'done', sessionChanged: true });
}

/** The new address's mailed link: the account's email changes. */
export async function confirmEmailChangeAction({ request, context }: ActionFunctionArgs<PageContext>) {
  const form = await request.formData();
  const api = actionApi(context);
  const parsed = EmailChangeConfirmSchema.safeParse({
    user: formText(form, 'user'),
    email: formText(form, 'email'),
    token: formText(form, 'token'),
  });
  if (!parsed.success) {
    return answer<ConfirmEmailChangeResult>(api, { failure: { message: EMAIL_CHANGE_TEXTS.badLink } });
  }
  const res = await api.post('/api/auth/change-email/confirm', parsed.data);
  if (!res.ok) {
    return answer<ConfirmEmailChangeResult>(api, { failure: failureOf(res, EMAIL_CHANGE_TEXTS.badLink) });
  }
  return answer<ConfirmEmailChangeResult>(api, { done: true, sessionChanged: true });
}
