import { data } from 'react-router';
import { isErrorBody } from '#common/errors';
import type { PageContext } from '#common/page-context';
import {
  SignInInputSchema,
  TwoFactorVerifyInputSchema,
  type SessionUser,
  type SignInInput,
} from '#common/schemas/auth';
import { formText } from '#web/lib/form-data';
import {
  INTENT,
  isTwoFactorKind,
  normalizeCode,
  signInCodeProblem,
  twoFactorCodeProblem,
  type FormFailure,
  type SignInStepResult,
  type TwoFactorKind,
} from './form-results';

/**
 * What the sign-in pages' route actions share (server only): the API called in process as the
 * visitor, its cookies passed on, and the sign-in with its later steps (two-factor code, mailed
 * sign-in code), which /login, /admin/login and /verify-email all lead to.
 *
 * Every answer the page handles (a wrong password, a field the schema refuses) is action data with
 * status 200: the page shows it, and a browser with the page's code does not log the post as a
 * failed request.
 */

/** An API answer that is not 2xx: its status and, when it sent our error body, its code, message and fields. */
export interface ApiFailure {
  status: number;
  code: string | undefined;
  message: string | undefined;
  fields: Record<string, string>;
}

export type ApiAnswer<T> = { ok: true; body: T } | ({ ok: false } & ApiFailure);

export interface ActionApi {
  post<T>(path: string, body: unknown): Promise<ApiAnswer<T>>;
  /** Every Set-Cookie the API answered with, to send on with the action's own answer. */
  readonly headers: Headers;
}

/** The shop's API for one action: in process, as the visitor (their cookies, origin, address). */
export function actionApi(context: PageContext): ActionApi {
  const headers = new Headers();
  return {
    headers,
    async post<T>(path: string, body: unknown): Promise<ApiAnswer<T>> {
      const res = await context.fetchApi(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      for (const cookie of res.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
      const json: unknown = await res.json().catch(() => undefined);
      if (res.ok) return { ok: true, body: json as T };
      if (!isErrorBody(json))
        return { ok: false, status: res.status, code: undefined, message: undefined, fields: {} };
      return {
        ok: false,
        status: res.status,
        code: json.error.code,
        // An empty message is no message: the page's own wording shows instead.
        message: json.error.message.trim() || undefined,
        fields: json.error.fields ?? {},
      };
    },
  };
}

/** The page's answer: `result` as action data, with the API's cookies. */
export function answer<T>(api: ActionApi, result: T) {
  return data(result, { headers: api.headers });
}

/** The API's message (or `fallback` when it sent none) and its field messages. */
export function failureOf(failure: ApiFailure, fallback: string): FormFailure {
  return { message: failure.message ?? fallback, fields: failure.fields };
}

/** Each field's first message from a zod failure (by its top-level name). */
export function schemaFields(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[String(issue.path[0] ?? '_')] ??= issue.message;
  return fields;
}

export function intentOf(form: FormData): string {
  return formText(form, INTENT);
}

/** The server's answer when a sign-in needs the code mailed to the account (sign-in-guard.ts). */
const SIGN_IN_CODE_REQUIRED = 'SIGN_IN_CODE_REQUIRED';

/** A sign-in's outcome: signed in, on to a code (two-factor or mailed), or refused. */
export type SignInAnswer =
  | { kind: 'signed-in'; user: SessionUser }
  | { kind: 'two-factor' }
  | { kind: 'code-required'; failure: ApiFailure }
  | { kind: 'refused'; failure: ApiFailure };

/** POST /api/auth/sign-in/email: a session cookie, a two-factor challenge's cookie, or an error. */
export async function signIn(api: ActionApi, input: SignInInput): Promise<SignInAnswer> {
  const res = await api.post<{ user?: SessionUser; twoFactorRequired?: boolean }>('/api/auth/sign-in/email', {
    email: input.email,
    password: input.password,
    ...(input.code ? { code: input.code } : {}),
  });
  if (!res.ok)
    return { kind: res.code === SIGN_IN_CODE_REQUIRED ? 'code-required' : 'refused', failure: res };
  if (res.body.twoFactorRequired === true) return { kind: 'two-factor' };
  if (!res.body.user)
    return { kind: 'refused', failure: { status: 500, code: undefined, message: undefined, fields: {} } };
  return { kind: 'signed-in', user: res.body.user };
}

/** What a page does once someone is signed in: a redirect, or data of its own (e.g. 'Not authorized'). */
export type OnSignedIn<R> = (user: SessionUser) => Response | R;

/**
 * The sign-in's later steps, posted to the page that started the sign-in (intents: 'two-factor',
 * 'two-factor-kind', 'sign-in-code', 'resend-code'); undefined for any other intent. `signedIn`
 * says where a signed-in user goes.
 */
export async function signInStepAction<R>(
  form: FormData,
  api: ActionApi,
  signedIn: OnSignedIn<R>,
): Promise<Response | R | SignInStepResult | undefined> {
  const intent = intentOf(form);
  switch (intent) {
    case 'two-factor':
      return verifyTwoFactor(form, api, signedIn);
    case 'two-factor-kind': {
      // Without JavaScript the 'Use a backup code instead' switch is a post of its own.
      const kind = formText(form, 'kind');
      return { step: 'two-factor', kind: isTwoFactorKind(kind) ? kind : 'totp' };
    }
    case 'sign-in-code':
    case 'resend-code':
      return signInWithCode(form, api, signedIn, intent === 'resend-code');
    default:
      return undefined;
  }
}

async function verifyTwoFactor<R>(
  form: FormData,
  api: ActionApi,
  signedIn: OnSignedIn<R>,
): Promise<Response | R | SignInStepResult> {
  const rawKind = formText(form, 'kind');
  const kind: TwoFactorKind = isTwoFactorKind(rawKind) ? rawKind : 'totp';
  const code = normalizeCode(formText(form, 'code'));
  const problem = twoFactorCodeProblem(kind, code);
  const parsed = TwoFactorVerifyInputSchema.safeParse({ code, kind });
  if (problem || !parsed.success) {
    const message = problem ?? parsed.error?.issues[0]?.message ?? 'Enter a backup code';
    return { step: 'two-factor', kind, failure: { fields: { code: message } } };
  }
  const res = await api.post<{ user: SessionUser }>('/api/auth/two-factor/verify', parsed.data);
  if (res.ok) return signedIn(res.body.user);
  return { step: 'two-factor', kind, failure: failureOf(res, 'Failed to verify the code') };
}

/**
 * The mailed code's step: the email, the password (typed again on this step when the page had no
 * code to keep it) and the code; or 'Send a new code', the same sign-in without a code.
 */
async function signInWithCode<R>(
  form: FormData,
  api: ActionApi,
  signedIn: OnSignedIn<R>,
  resend: boolean,
): Promise<Response | R | SignInStepResult> {
  const email = formText(form, 'email');
  const code = normalizeCode(formText(form, 'code'));
  const codeProblem = resend ? undefined : signInCodeProblem(code);
  const parsed = SignInInputSchema.safeParse({
    email,
    password: formText(form, 'password'),
    ...(resend ? {} : { code }),
  });
  if (codeProblem || !parsed.success) {
    const fields = parsed.success ? {} : schemaFields(parsed.error.issues);
    if (codeProblem) fields.code = codeProblem;
    return { step: 'sign-in-code', email, failure: { fields } };
  }
  const outcome = await signIn(api, parsed.data);
  switch (outcome.kind) {
    case 'signed-in':
      // Signed in after all on a new code (the account's guard ended meanwhile).
      return signedIn(outcome.user);
    case 'two-factor':
      return { step: 'two-factor', kind: 'totp' };
    case 'code-required':
      return resend
        ? { step: 'sign-in-code', email, resent: true }
        : { step: 'sign-in-code', email, failure: failureOf(outcome.failure, 'That code did not work.') };
    case 'refused':
      return { step: 'sign-in-code', email, failure: failureOf(outcome.failure, 'Failed to sign in') };
  }
}
