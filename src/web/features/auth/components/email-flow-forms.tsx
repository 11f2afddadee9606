import { CheckCircle2, MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Form, Link, useSearchParams } from 'react-router';
import { EMAIL_FLOW_TEXTS } from '#common/email-flow-texts';
import { EmailSchema, PasswordSchema, VERIFY_EMAIL_TEXTS } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { errorMessage } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import { useVerificationAccount } from '../api/email-flows';
import {
  PASSWORDS_DIFFER,
  type ForgotPasswordResult,
  type ResetPasswordResult,
  type VerifyEmailMode,
  type VerifyEmailResult,
} from '../api/email-flow-results';
import { INTENT } from '../api/form-results';
import { useActionResult, useFormPost } from '../hooks/use-form-post';
import { TwoFactorStep } from './two-factor-step';
import { LocalMailNote } from '#web/components/local-mail-note';

/**
 * The email flows' pages. Each form posts to its route's action (routes/storefront/*.tsx), with
 * the page's code or without: the page checks the fields first when its code runs, and the action
 * checks them again with the same schemas and calls the API.
 */

function Done({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="text-center" role="status">
      <CheckCircle2 className="mx-auto size-12 text-emerald-600" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-semibold tracking-tight text-stone-950">{title}</h1>
      <div className="mt-3 text-[15px] text-stone-600">{children}</div>
    </div>
  );
}

/** 'Forgot password?': mails a reset link; the answer is the same whether the address has an account. */
export function ForgotPasswordForm() {
  const [result] = useActionResult<ForgotPasswordResult>();
  const { post, pendingIntent } = useFormPost();
  const [fieldError, setFieldError] = useState<string | undefined>();
  const pending = pendingIntent === 'forgot-password';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = EmailSchema.safeParse(formText(form, 'email'));
    setFieldError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) post(form);
  };

  if (result && 'sent' in result) {
    return (
      <div className="text-center" role="status">
        <MailCheck className="mx-auto size-12 text-rose-600" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-stone-950">Check your inbox</h1>
        <p className="mt-3 text-[15px] text-stone-600">{EMAIL_FLOW_TEXTS.resetRequested}</p>
        <LocalMailNote className="mt-2 block text-[15px] font-medium text-stone-800" />
        <Link
          to={paths.login.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Back to sign in
        </Link>
      </div>
    );
  }
  const failure = pending ? undefined : result?.failure;
  const emailError = fieldError ?? failure?.fields?.email;
  return (
    <div>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight text-stone-950">Reset your password</h1>
        <p className="text-[15px] text-stone-500">We will email you a link to choose a new one.</p>
      </div>
      {failure?.message && !emailError ? (
        <Alert variant="error" className="mb-6">
          {failure.message}
        </Alert>
      ) : null}
      <Form method="post" onSubmit={onSubmit} className="space-y-5" noValidate>
        <input type="hidden" name={INTENT} value="forgot-password" />
        <Field label="Email" error={emailError} isRequired>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            defaultValue={result?.email}
          />
        </Field>
        <Button type="submit" size="lg" fullWidth isLoading={pending}>
          Email me a reset link
        </Button>
      </Form>
      <p className="mt-8 text-center text-sm text-stone-500">
        Remembered it?{' '}
        <Link
          to={paths.login.getHref()}
          className="font-semibold text-rose-700 underline-offset-4 hover:underline"
        >
          Sign in
        </Link>
      </p>
    </div>
  );
}

/** A new password typed twice, checked as the action checks it: the password first, then the match. */
function newPasswordErrors(form: FormData): { password?: string; confirm?: string } {
  const password = formText(form, 'password');
  const parsed = PasswordSchema.safeParse(password);
  if (!parsed.success) return { password: parsed.error.issues[0]?.message };
  if (formText(form, 'confirm') !== password) return { confirm: PASSWORDS_DIFFER };
  return {};
}

/** The mailed reset link's page: a new password (twice); every session is signed out after. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [result] = useActionResult<ResetPasswordResult>();
  const { post, pendingIntent } = useFormPost();
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const pending = pendingIntent === 'reset-password';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const found = newPasswordErrors(form);
    setErrors(found);
    if (!found.password && !found.confirm) post(form);
  };

  if (result && 'done' in result) {
    return (
      <Done title="Password changed">
        <p>{EMAIL_FLOW_TEXTS.resetDone}</p>
        <Link
          to={paths.login.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Sign in
        </Link>
      </Done>
    );
  }
  const failure = pending || !result ? undefined : result.failure;
  const passwordError = errors.password ?? failure?.fields?.password;
  const confirmError = errors.confirm ?? failure?.fields?.confirm;
  return (
    <div>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight text-stone-950">Choose a new password</h1>
        <p className="text-[15px] text-stone-500">You will be signed out on every device.</p>
      </div>
      {failure?.message && !passwordError && !confirmError ? (
        <Alert variant="error" className="mb-6">
          {failure.message}{' '}
          <Link to={paths.forgotPassword.getHref()} className="font-semibold underline">
            Ask for a new link
          </Link>
        </Alert>
      ) : null}
      <Form method="post" onSubmit={onSubmit} className="space-y-5" noValidate>
        <input type="hidden" name={INTENT} value="reset-password" />
        <input type="hidden" name="token" value={token} />
        <NewPasswordFields passwordError={passwordError} confirmError={confirmError} />
        <Button type="submit" size="lg" fullWidth isLoading={pending}>
          Change password
        </Button>
      </Form>
    </div>
  );
}

/** The account's creation time as the confirmation mail gives it: in UTC, e.g. '14 May 2026 at 09:05 UTC'. */
function utcDateTime(iso: string): string {
  const formatted = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(new Date(iso));
  return `${formatted} UTC`;
}

/** The query that opens the confirmation page on the other password step (the switch without JavaScript). */
const MODE_PARAM = 'mode';

/**
 * The mailed confirmation link's page. It confirms nothing by itself: it names the account the link
 * is for (its address and when it was made) and asks for a password step, a new password or (for
 * the person who created the account) its current one. Confirming signs the account out on every
 * device and this browser in, then leads to the account's orders. `linkError` is the server's
 * answer for a link it could not open (the page's first HTML says so without JavaScript).
 */
export function VerifyEmailForm({ token, linkError }: { token: string; linkError?: string | undefined }) {
  const account = useVerificationAccount(token);
  const [result, setAside] = useActionResult<VerifyEmailResult>();
  const { post, pendingIntent } = useFormPost();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<VerifyEmailMode>(() =>
    result?.step === 'password' ? result.mode : params.get(MODE_PARAM) === 'current' ? 'current' : 'set',
  );
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const pending = pendingIntent === 'verify';

  const switchMode = (next: VerifyEmailMode) => {
    setMode(next);
    setErrors({});
    setAside();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const found =
      mode === 'set'
        ? newPasswordErrors(form)
        : formText(form, 'password') === ''
          ? { password: "Enter the account's password" }
          : {};
    setErrors(found);
    if (!found.password && !found.confirm) post(form);
  };

  if (!token || linkError || account.isError) {
    return (
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-950">Confirmation failed</h1>
        <Alert variant="error" className="mt-5">
          {!token
            ? 'This link is incomplete'
            : (linkError ?? errorMessage(account.error, 'Failed to confirm the email address'))}
        </Alert>
        <Link
          to={paths.login.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Sign in
        </Link>
      </div>
    );
  }
  if (!account.data) {
    return (
      <div className="flex flex-col items-center py-6 text-center" role="status">
        <Spinner label={null} />
        <p className="mt-4 text-[15px] text-stone-600">Opening your confirmation link…</p>
      </div>
    );
  }
  // The answers first: once confirmed, the account the page shows is confirmed too.
  if (result?.step === 'two-factor') return <TwoFactorStep result={result} />;
  if (result?.step === 'done') {
    // Confirmed, but the sign-in after it failed: sign in by hand.
    return (
      <Done title="Email confirmed">
        <p>{EMAIL_FLOW_TEXTS.verified} Sign in to see the orders placed with it.</p>
        <Link
          to={paths.login.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Sign in
        </Link>
      </Done>
    );
  }
  if (account.data.verified && !pending) {
    return (
      <Done title="Already confirmed">
        <p>{VERIFY_EMAIL_TEXTS.alreadyVerified}</p>
        <Link
          to={paths.login.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Sign in
        </Link>
      </Done>
    );
  }

  const setting = mode === 'set';
  const failure =
    !pending && result?.step === 'password' && result.mode === mode ? result.failure : undefined;
  const passwordError = errors.password ?? failure?.fields?.password;
  const confirmError = errors.confirm ?? failure?.fields?.confirm;
  return (
    <div>
      <MailCheck className="size-10 text-rose-600" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-semibold tracking-tight text-stone-950">Confirm your email</h1>
      <dl className="mt-6 rounded-2xl bg-stone-50 px-4 py-3.5 ring-1 ring-stone-200/80">
        <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">Account</dt>
        <dd className="mt-0.5 text-[15px] font-semibold break-all text-stone-950">{account.data.email}</dd>
        <dt className="sr-only">Created</dt>
        <dd className="mt-1 text-sm text-stone-500">Created {utcDateTime(account.data.createdAt)}</dd>
      </dl>
      <p className="mt-5 text-[15px] text-stone-600">
        {setting
          ? 'Choose a new password to finish. Every device signed in to this account is signed out, then you are signed in here and see the orders placed with this address.'
          : "Enter this account's password to finish. Every other device signed in to it is signed out."}
      </p>
      {failure?.message && !passwordError && !confirmError ? (
        <Alert variant="error" className="mt-6">
          {failure.message}
        </Alert>
      ) : null}
      <Form key={mode} method="post" onSubmit={onSubmit} className="mt-6 space-y-5" noValidate>
        <input type="hidden" name={INTENT} value="verify" />
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="mode" value={mode} />
        {setting ? (
          <NewPasswordFields passwordError={passwordError} confirmError={confirmError} />
        ) : (
          <Field label="Password" error={passwordError} isRequired>
            <Input name="password" type="password" autoComplete="current-password" />
          </Field>
        )}
        <Button type="submit" size="lg" fullWidth isLoading={pending}>
          {setting ? 'Set password and confirm' : 'Confirm email'}
        </Button>
      </Form>
      {/* The other password step: a GET of this page with ?mode=… without JavaScript, local with it. */}
      <form
        method="get"
        action={paths.verifyEmail.getHref()}
        className="mt-8 border-t border-stone-200 pt-6 text-center text-sm text-stone-500"
      >
        <input type="hidden" name="token" value={token} />
        {setting
          ? 'Created this account yourself?'
          : 'Did not create this account, or forgot its password?'}{' '}
        <button
          type="submit"
          name={MODE_PARAM}
          value={setting ? 'current' : 'set'}
          onClick={(event) => {
            event.preventDefault();
            switchMode(setting ? 'current' : 'set');
          }}
          className="rounded font-semibold text-rose-700 underline-offset-4 hover:underline"
        >
          {setting ? "I know this account's password" : 'Set a new password'}
        </button>
      </form>
    </div>
  );
}

/** A new password typed twice, with the hint on choosing one (reset and confirmation forms). */
function NewPasswordFields({
  passwordError,
  confirmError,
}: {
  passwordError: string | undefined;
  confirmError: string | undefined;
}) {
  return (
    <>
      <Field label="New password" error={passwordError} hint={EMAIL_FLOW_TEXTS.newPasswordHint} isRequired>
        <Input name="password" type="password" autoComplete="new-password" />
      </Field>
      <Field label="Confirm new password" error={confirmError} isRequired>
        <Input name="confirm" type="password" autoComplete="new-password" />
      </Field>
    </>
  );
}
