import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import { useSignIn, type SignInOutcome } from '../api/sign-in';

/** The server's answer when a sign-in needs the code mailed to the account. */
export const SIGN_IN_CODE_REQUIRED = 'SIGN_IN_CODE_REQUIRED';

export function isSignInCodeRequired(error: unknown): boolean {
  return isApiError(error) && error.code === SIGN_IN_CODE_REQUIRED;
}

/**
 * The sign-in's code step: after many failed sign-ins of the account (or from this address), a
 * device it never signed in on needs, besides the password, the 6-digit code mailed to the
 * account. The server answers the same whether or not the password was right, so this step says
 * so; the email and password typed before are sent again with the code.
 */
export function SignInCodeStep({
  email,
  password,
  onSignedIn,
  onBack,
  variant = 'primary',
}: {
  email: string;
  password: string;
  onSignedIn: (outcome: SignInOutcome) => void;
  onBack: () => void;
  variant?: 'primary' | 'secondary';
}) {
  const signIn = useSignIn();
  const resend = useSignIn();
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [resent, setResent] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  // The step replaces the form the person just sent: their focus moves to the code.
  useEffect(() => codeInput.current?.focus(), []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = formText(new FormData(event.currentTarget), 'code').replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) {
      setFieldError('Enter the 6-digit code from the email');
      return;
    }
    setFieldError(undefined);
    setResent(false);
    signIn.mutate({ email, password, code }, { onSuccess: onSignedIn });
  };

  const sendNewCode = () => {
    signIn.reset();
    setResent(false);
    resend.mutate(
      { email, password },
      {
        // Signed in after all (the account's guard ended meanwhile).
        onSuccess: onSignedIn,
        onError: (err) => setResent(isSignInCodeRequired(err)),
      },
    );
  };

  const error = signIn.error ?? (resend.error && !isSignInCodeRequired(resend.error) ? resend.error : null);

  return (
    <div className="space-y-6">
      <div className="space-y-4">
        <span className="flex size-11 items-center justify-center rounded-full bg-rose-50 text-rose-600 ring-1 ring-rose-100">
          <MailCheck className="size-5" aria-hidden="true" />
        </span>
        <div className="space-y-1.5">
          <h2 className="text-xl font-semibold tracking-tight text-stone-950">Check your email</h2>
          <p className="text-[15px] leading-relaxed text-stone-500">
            After many failed sign-ins, this device needs a code as well as the password. If the password is
            right, we emailed a 6-digit code to{' '}
            <span className="font-medium break-words text-stone-800">{email}</span>. It works once, for 10
            minutes.
          </p>
        </div>
      </div>
      {error ? (
        <Alert variant="error">
          {isSignInCodeRequired(error)
            ? errorMessage(error, 'That code did not work.')
            : errorMessage(error, 'Failed to sign in')}
        </Alert>
      ) : resent ? (
        <Alert variant="info">If the password is right, a new code is on its way.</Alert>
      ) : null}
      <form onSubmit={onSubmit} className="space-y-5" noValidate>
        <Field label="Sign-in code" error={fieldError} isRequired>
          <Input
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={7}
            ref={codeInput}
            className="text-center font-mono text-lg tracking-[0.4em] sm:text-lg"
          />
        </Field>
        <Button type="submit" size="lg" variant={variant} fullWidth isLoading={signIn.isPending}>
          Sign in
        </Button>
      </form>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
        <button
          type="button"
          onClick={sendNewCode}
          disabled={resend.isPending}
          className="rounded font-medium text-rose-700 underline-offset-4 hover:underline disabled:opacity-60"
        >
          Send a new code
        </button>
        <button
          type="button"
          onClick={onBack}
          className="rounded font-medium text-stone-600 underline-offset-4 hover:text-stone-900 hover:underline"
        >
          Use a different password
        </button>
      </div>
    </div>
  );
}
