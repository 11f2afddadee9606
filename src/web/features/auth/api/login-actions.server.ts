import { redirect, type ActionFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import { SignInInputSchema, SignUpInputSchema } from '#common/schemas/auth';
import { paths } from '#web/config/paths';
import { formText } from '#web/lib/form-data';
import { ADMIN_CHECK_MESSAGES } from '../components/require-admin';
import {
  actionApi,
  answer,
  failureOf,
  intentOf,
  schemaFields,
  signIn,
  signInStepAction,
  type ActionApi,
} from './form-actions.server';
import { ADMIN_LOGIN_FALLBACK, type AdminLoginResult, type LoginResult } from './form-results';

/**
 * /login's action: sign in, create an account (then sign in with it), and the sign-in's later
 * steps. Signed in, the user goes to their account (/profile) with the session cookie.
 */
export async function loginAction({ request, context }: ActionFunctionArgs<PageContext>) {
  const form = await request.formData();
  const api = actionApi(context);
  const toProfile = () => redirect(paths.profile.root.getHref(), { headers: api.headers });
  const intent = intentOf(form);
  if (intent === 'back') {
    return answer<LoginResult>(api, {
      step: 'credentials',
      mode: 'sign-in',
      email: formText(form, 'email'),
    });
  }
  const step = await signInStepAction<never>(form, api, toProfile);
  if (step instanceof Response) return step;
  if (step) return answer<LoginResult>(api, step);
  return intent === 'sign-up' ? signUp(form, api, toProfile) : signInWithPassword(form, api, toProfile);
}

async function signInWithPassword(form: FormData, api: ActionApi, toProfile: () => Response) {
  const email = formText(form, 'email');
  const parsed = SignInInputSchema.omit({ code: true }).safeParse({
    email,
    password: formText(form, 'password'),
  });
  if (!parsed.success) {
    return answer<LoginResult>(api, {
      step: 'credentials',
      mode: 'sign-in',
      email,
      failure: { fields: schemaFields(parsed.error.issues) },
    });
  }
  const outcome = await signIn(api, parsed.data);
  switch (outcome.kind) {
    case 'signed-in':
      return toProfile();
    case 'two-factor':
      return answer<LoginResult>(api, { step: 'two-factor', kind: 'totp' });
    case 'code-required':
      return answer<LoginResult>(api, { step: 'sign-in-code', email: parsed.data.email });
    case 'refused':
      return answer<LoginResult>(api, {
        step: 'credentials',
        mode: 'sign-in',
        email,
        failure: failureOf(outcome.failure, 'Failed to sign in'),
      });
  }
}

/**
 * Creates the account, then signs in with the same email and password (sign-up itself never
 * signs in: it answers the same whether or not the address already has an account). When that
 * sign-in is refused, the address had an account with another password (its owner got a mail):
 * the page says to check the inbox.
 */
async function signUp(form: FormData, api: ActionApi, toProfile: () => Response) {
  const email = formText(form, 'email');
  const parsed = SignUpInputSchema.safeParse({ email, password: formText(form, 'password') });
  if (!parsed.success) {
    return answer<LoginResult>(api, {
      step: 'credentials',
      mode: 'sign-up',
      email,
      failure: { fields: schemaFields(parsed.error.issues) },
    });
  }
  const created = await api.post('/api/auth/sign-up/email', {
    email: parsed.data.email,
    password: parsed.data.password,
  });
  if (!created.ok) {
    return answer<LoginResult>(api, {
      step: 'credentials',
      mode: 'sign-up',
      email,
      failure: failureOf(created, 'Failed to sign up'),
    });
  }
  const outcome = await signIn(api, { email: parsed.data.email, password: parsed.data.password });
  if (outcome.kind === 'signed-in') return toProfile();
  if (outcome.kind === 'refused' && outcome.failure.status !== 401) {
    return answer<LoginResult>(api, {
      step: 'credentials',
      mode: 'sign-up',
      email,
      failure: failureOf(outcome.failure, 'Failed to sign up'),
    });
  }
  return answer<LoginResult>(api, { step: 'credentials', mode: 'sign-up', email, checkEmail: true });
}

/**
 * /admin/login's action: only a user with the admin role goes on to the back office; anyone else
 * signed in is told 'Not authorized' (signed in all the same, as the API answered).
 */
export async function adminLoginAction({ request, context }: ActionFunctionArgs<PageContext>) {
  const form = await request.formData();
  const api = actionApi(context);
  const signedIn = (user: { role: string }): Response | AdminLoginResult =>
    user.role === 'admin'
      ? redirect(paths.admin.products.getHref(), { headers: api.headers })
      : {
          step: 'credentials',
          email: '',
          failure: { message: ADMIN_CHECK_MESSAGES.forbidden },
          sessionChanged: true,
        };
  const intent = intentOf(form);
  if (intent === 'back') {
    return answer<AdminLoginResult>(api, { step: 'credentials', email: formText(form, 'email') });
  }
  const step = await signInStepAction(form, api, signedIn);
  if (step instanceof Response) return step;
  if (step) return answer<AdminLoginResult>(api, step);

  const email = formText(form, 'email');
  const parsed = SignInInputSchema.omit({ code: true }).safeParse({
    email,
    password: formText(form, 'password'),
  });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? ADMIN_LOGIN_FALLBACK;
    return answer<AdminLoginResult>(api, { step: 'credentials', email, failure: { message } });
  }
  const outcome = await signIn(api, parsed.data);
  switch (outcome.kind) {
    case 'signed-in': {
      const next = signedIn(outcome.user);
      return next instanceof Response ? next : answer(api, { ...next, email });
    }
    case 'two-factor':
      return answer<AdminLoginResult>(api, { step: 'two-factor', kind: 'totp' });
    case 'code-required':
      return answer<AdminLoginResult>(api, { step: 'sign-in-code', email: parsed.data.email });
    case 'refused':
      return answer<AdminLoginResult>(api, {
        step: 'credentials',
        email,
        failure: { message: outcome.failure.message ?? ADMIN_LOGIN_FALLBACK },
      });
  }
}
