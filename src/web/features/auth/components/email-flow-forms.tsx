import { CheckCircle2, MailCheck } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EMAIL_FLOW_TEXTS } from '#common/email-flow-texts';
import { EmailSchema, PASSWORD_MIN_LENGTH, PasswordSchema } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import { useForgotPassword, useResetPassword, useVerifyEmail } from '../api/email-flows';

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
        <Field
          label="New password"
          error={errors.password ?? serverField}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          isRequired
        >
          <Input name="password" type="password" autoComplete="new-password" />
        </Field>
        <Field label="Confirm new password" error={errors.confirm} isRequired>
          <Input name="confirm" type="password" autoComplete="new-password" />
        </Field>
        <Button type="submit" size="lg" fullWidth isLoading={reset.isPending}>
          Change password
        </Button>
      </form>
    </div>
  );
}

/** The mailed confirmation link's page: confirms the address as soon as the page runs. */
export function VerifyEmailStatus({ token }: { token: string }) {
  const verify = useVerifyEmail();
  const { mutate } = verify;
  useEffect(() => {
    if (token) mutate(token);
  }, [token, mutate]);

  if (verify.isSuccess) {
    return (
      <Done title="Email confirmed">
        <p>{EMAIL_FLOW_TEXTS.verified} Orders placed with it now show in your account.</p>
        <Link
          to={paths.profile.orders.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          View your orders
        </Link>
      </Done>
    );
  }
  if (verify.isError || !token) {
    return (
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-950">Confirmation failed</h1>
        <Alert variant="error" className="mt-5">
          {token
            ? errorMessage(verify.error, 'Failed to confirm the email address')
            : 'This link is incomplete'}
        </Alert>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center py-6 text-center" role="status">
      <Spinner label={null} />
      <p className="mt-4 text-[15px] text-stone-600">Confirming your email address…</p>
    </div>
  );
}
