import { useState, type FormEvent } from 'react';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { errorMessage } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import { loadAuthSchemas, preloadAuthSchemas } from '../api/auth-schemas';
import { useSignIn, type SignInOutcome } from '../api/sign-in';
import { TwoFactorStep } from './two-factor-step';
import { isSignInCodeRequired, SignInCodeStep } from './sign-in-code-step';
import { ADMIN_CHECK_MESSAGES } from './require-admin';

/** Spec: the service's error message in a red banner; non-standard failures show this. */
export const ADMIN_LOGIN_FALLBACK = 'An error occurred';

export interface AdminLoginFormProps {
  onSuccess: () => void;
  /** A message to show before anything is submitted (e.g. a customer sent here from an admin page). */
  initialError?: string | undefined;
}

/** Sign-in for the back office: only a user with the admin role gets through. */
export function AdminLoginForm({ onSuccess, initialError }: AdminLoginFormProps) {
  const signIn = useSignIn();
  const [error, setError] = useState<string | undefined>(initialError);
  // The message can arrive after the first render (it is known only once the page has hydrated).
  const [shownInitial, setShownInitial] = useState(initialError);
  if (initialError !== shownInitial) {
    setShownInitial(initialError);
    if (initialError) setError(initialError);
  }
  const [needsCode, setNeedsCode] = useState(false);
  // The credentials the code step sends again with the mailed code (SIGN_IN_CODE_REQUIRED).
  const [codeStep, setCodeStep] = useState<{ email: string; password: string } | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { SignInInputSchema } = await loadAuthSchemas();
    const parsed = SignInInputSchema.safeParse({
      email: formText(form, 'email'),
      password: formText(form, 'password'),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? ADMIN_LOGIN_FALLBACK);
      return;
    }
    setError(undefined);
    signIn.mutate(parsed.data, {
      onSuccess: signedIn,
      onError: (err) => {
        if (isSignInCodeRequired(err))
          setCodeStep({ email: parsed.data.email, password: parsed.data.password });
        else setError(errorMessage(err, ADMIN_LOGIN_FALLBACK));
      },
    });
  };

  function signedIn(outcome: SignInOutcome) {
    setCodeStep(null);
    if (outcome.twoFactorRequired) setNeedsCode(true);
    else if (outcome.user?.role === 'admin') onSuccess();
    else setError(ADMIN_CHECK_MESSAGES.forbidden);
  }

  if (needsCode) {
    return (
      <TwoFactorStep
        variant="secondary"
        onSignedIn={(user) => {
          if (user.role === 'admin') onSuccess();
          else {
            setNeedsCode(false);
            setError(ADMIN_CHECK_MESSAGES.forbidden);
          }
        }}
      />
    );
  }
  if (codeStep) {
    return (
      <SignInCodeStep
        {...codeStep}
        variant="secondary"
        onSignedIn={signedIn}
        onBack={() => setCodeStep(null)}
      />
    );
  }
  return (
    <div className="space-y-6">
      {error ? <Alert variant="error">{error}</Alert> : null}
      <form onSubmit={(event) => void onSubmit(event)} onFocus={preloadAuthSchemas} className="space-y-5">
        <Field label="Email" isRequired>
          <Input name="email" type="email" autoComplete="username" inputMode="email" />
        </Field>
        <Field label="Password" isRequired>
          <Input name="password" type="password" autoComplete="current-password" />
        </Field>
        <Button type="submit" size="lg" variant="secondary" fullWidth isLoading={signIn.isPending}>
          Sign in
        </Button>
      </form>
    </div>
  );
}
