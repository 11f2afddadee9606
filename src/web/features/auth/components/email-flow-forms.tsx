import { CheckCircle2, MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { EMAIL_FLOW_TEXTS } from '#common/email-flow-texts';
import { EmailSchema, PasswordSchema, VERIFY_EMAIL_TEXTS, type VerifyEmailInput } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import {
  useForgotPassword,
  useResetPassword,
  useVerificationAccount,
  useVerifyEmail,
} from '../api/email-flows';
import { TwoFactorStep } from './two-factor-step';

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
  const forgot = useForgotPassword();
  const [fieldError, setFieldError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = EmailSchema.safeParse(formText(new FormData(event.currentTarget), 'email'));
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    forgot.mutate(parsed.data);
  };

  if (forgot.isSuccess) {
    return (
      <div className="text-center" role="status">
        <MailCheck className="mx-auto size-12 text-rose-600" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-stone-950">Check your inbox</h1>
        <p className="mt-3 text-[15px] text-stone-600">{EMAIL_FLOW_TEXTS.resetRequested}</p>
        <Link
          to={paths.login.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Back to sign in
        </Link>
      </div>
    );
  }
  return (
    <div>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight text-stone-950">Reset your password</h1>
        <p className="text-[15px] text-stone-500">We will email you a link to choose a new one.</p>
      </div>
      {forgot.error ? (
        <Alert variant="error" className="mb-6">
          {errorMessage(forgot.error, 'Failed to send the reset link')}
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} className="space-y-5" noValidate>
        <Field label="Email" error={fieldError} isRequired>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
          />
        </Field>
        <Button type="submit" size="lg" fullWidth isLoading={forgot.isPending}>
          Email me a reset link
        </Button>
      </form>
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

/** The mailed reset link's page: a new password (twice); every session is signed out after. */
export function ResetPasswordForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const serverField = isApiError(reset.error) ? reset.error.fields.password : undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = formText(form, 'password');
    const parsed = PasswordSchema.safeParse(password);
    if (!parsed.success) return setErrors({ password: parsed.error.issues[0]?.message });
    if (formText(form, 'confirm') !== password) return setErrors({ confirm: 'Passwords do not match' });
    setErrors({});
    reset.mutate({ token, password });
  };

  if (reset.isSuccess) {
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
  return (
    <div>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight text-stone-950">Choose a new password</h1>
        <p className="text-[15px] text-stone-500">You will be signed out on every device.</p>
      </div>
      {reset.error && !serverField ? (
        <Alert variant="error" className="mb-6">
          {errorMessage(reset.error, 'Failed to reset the password')}{' '}
          <Link to={paths.forgotPassword.getHref()} className="font-semibold underline">
            Ask for a new link
          </Link>
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} className="space-y-5" noValidate>
        <NewPasswordFields passwordError={errors.password ?? serverField} confirmError={errors.confirm} />
        <Button type="submit" size="lg" fullWidth isLoading={reset.isPending}>
          Change password
        </Button>
      </form>
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

type ConfirmMode = VerifyEmailInput['mode'];

/**
 * The mailed confirmation link's page. It confirms nothing by itself: it names the account the link
 * is for (its address and when it was made) and asks for a password step, a new password or (for
 * the person who created the account) its current one. Confirming signs the account out on every
 * device and this browser in, then leads to the account's orders.
 */
export function VerifyEmailForm({ token }: { token: string }) {
  const account = useVerificationAccount(token);
  const verify = useVerifyEmail();
  const navigate = useNavigate();
  const [mode, setMode] = useState<ConfirmMode>('set');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [twoFactor, setTwoFactor] = useState(false);
  const serverField = isApiError(verify.error) ? verify.error.fields.password : undefined;
  const toOrders = () => void navigate(paths.profile.orders.getHref(), { replace: true });

  const switchMode = (next: ConfirmMode) => {
    setMode(next);
    setErrors({});
    verify.reset();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = formText(form, 'password');
    if (mode === 'set') {
      const parsed = PasswordSchema.safeParse(password);
      if (!parsed.success) return setErrors({ password: parsed.error.issues[0]?.message });
      if (formText(form, 'confirm') !== password) return setErrors({ confirm: 'Passwords do not match' });
    } else if (password === '') {
      return setErrors({ password: "Enter the account's password" });
    }
    setErrors({});
    verify.mutate(
      { token, mode, password },
      {
        onSuccess: ({ result }) => {
          if (result.twoFactorRequired) setTwoFactor(true);
          else if (result.signedIn) toOrders();
        },
      },
    );
  };

  if (!token || account.isError) {
    return (
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-950">Confirmation failed</h1>
        <Alert variant="error" className="mt-5">
          {token
            ? errorMessage(account.error, 'Failed to confirm the email address')
            : 'This link is incomplete'}
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
  if (account.data.verified && !verify.isSuccess) {
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
  if (twoFactor) return <TwoFactorStep onSignedIn={toOrders} />;
  if (verify.isSuccess) {
    // Confirmed; signed in elsewhere than here only if that sign-in failed: sign in by hand.
    return (
      <Done title="Email confirmed">
        <p>{EMAIL_FLOW_TEXTS.verified} Sign in to see the orders placed with it.</p>
        <Link
          to={verify.data.user ? paths.profile.orders.getHref() : paths.login.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          {verify.data.user ? 'View your orders' : 'Sign in'}
        </Link>
      </Done>
    );
  }

  const setting = mode === 'set';
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
      {verify.error && !serverField ? (
        <Alert variant="error" className="mt-6">
          {errorMessage(verify.error, 'Failed to confirm the email address')}
        </Alert>
      ) : null}
      <form key={mode} onSubmit={onSubmit} className="mt-6 space-y-5" noValidate>
        {setting ? (
          <NewPasswordFields passwordError={errors.password ?? serverField} confirmError={errors.confirm} />
        ) : (
          <Field label="Password" error={errors.password ?? serverField} isRequired>
            <Input name="password" type="password" autoComplete="current-password" />
          </Field>
        )}
        <Button type="submit" size="lg" fullWidth isLoading={verify.isPending}>
          {setting ? 'Set password and confirm' : 'Confirm email'}
        </Button>
      </form>
      <div className="mt-8 border-t border-stone-200 pt-6 text-center text-sm text-stone-500">
        {setting ? 'Created this account yourself?' : 'Did not create this account, or forgot its password?'}{' '}
        <button
          type="button"
          onClick={() => switchMode(setting ? 'current' : 'set')}
          className="rounded font-semibold text-rose-700 underline-offset-4 hover:underline"
        >
          {setting ? "I know this account's password" : 'Set a new password'}
        </button>
      </div>
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
