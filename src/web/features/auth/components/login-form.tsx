import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EMAIL_FLOW_TEXTS } from '#common/email-flow-texts';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { paths } from '#web/config/paths';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import { useSignIn } from '../api/sign-in';
import { useSignUp } from '../api/sign-up';
import { loadAuthSchemas, preloadAuthSchemas } from '../api/auth-schemas';
import { TwoFactorStep } from './two-factor-step';
import { isSignInCodeRequired, SignInCodeStep } from './sign-in-code-step';

type Mode = 'sign-in' | 'sign-up';
type FieldErrors = Partial<Record<'email' | 'password', string>>;

function firstIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if ((key === 'email' || key === 'password') && !out[key]) out[key] = issue.message;
  }
  return out;
}

export interface LoginFormProps {
  onSuccess: () => void;
}

/** One form that toggles between signing in and creating an account. */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const [mode, setMode] = useState<Mode>('sign-in');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [needsCode, setNeedsCode] = useState(false);
  // The credentials the code step sends again with the mailed code (SIGN_IN_CODE_REQUIRED).
  const [codeStep, setCodeStep] = useState<{ email: string; password: string } | null>(null);
  const signIn = useSignIn();
  const signUp = useSignUp();
  const mutation = mode === 'sign-in' ? signIn : signUp;
  const apiError = mutation.error;

  const switchMode = (next: Mode) => {
    setMode(next);
    setFieldErrors({});
    signIn.reset();
    signUp.reset();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const raw = { email: formText(form, 'email'), password: formText(form, 'password') };
    const { SignInInputSchema, SignUpInputSchema } = await loadAuthSchemas();
    const schema = mode === 'sign-in' ? SignInInputSchema : SignUpInputSchema;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const errors = firstIssues(parsed.error.issues);
      setFieldErrors(errors);
      const first = errors.email ? 'email' : 'password';
      const input = formElement.elements.namedItem(first);
      if (input instanceof HTMLInputElement) input.focus();
      return;
    }
    setFieldErrors({});
    if (mode === 'sign-in') {
      signIn.mutate(parsed.data, {
        onSuccess: (outcome) => (outcome.twoFactorRequired ? setNeedsCode(true) : onSuccess()),
        onError: (err) => {
          if (isSignInCodeRequired(err)) setCodeStep({ email: parsed.data.email, password: raw.password });
        },
      });
    } else {
      // Signed in: on to the account. Not (the address had an account): the form says to check mail.
      signUp.mutate(parsed.data, {
        onSuccess: (user) => {
          if (user) onSuccess();
        },
      });
    }
  };

  const serverFields: FieldErrors = isApiError(apiError) ? apiError.fields : {};
  if (needsCode) return <TwoFactorStep onSignedIn={() => onSuccess()} />;
  if (codeStep) {
    return (
      <SignInCodeStep
        {...codeStep}
        onSignedIn={(outcome) => (outcome.twoFactorRequired ? setNeedsCode(true) : onSuccess())}
        onBack={() => {
          setCodeStep(null);
          signIn.reset();
        }}
      />
    );
  }
  const isSignIn = mode === 'sign-in';

  return (
    <div>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight text-stone-950">
          {isSignIn ? 'Sign in' : 'Create your account'}
        </h1>
        <p className="text-[15px] text-stone-500">
          {isSignIn
            ? 'Welcome back. Track orders, message support and see your rewards.'
            : 'Join to track your orders, get support and follow your AELO rewards.'}
        </p>
      </div>

      {apiError && !serverFields.email && !serverFields.password ? (
        <Alert variant="error" className="mb-6">
          {errorMessage(apiError, isSignIn ? 'Failed to sign in' : 'Failed to sign up')}
        </Alert>
      ) : null}
      {!isSignIn && signUp.isSuccess && !signUp.data ? (
        <Alert variant="info" className="mb-6">
          {EMAIL_FLOW_TEXTS.signUpCheckEmail}
        </Alert>
      ) : null}

      <form onSubmit={(event) => void onSubmit(event)} onFocus={preloadAuthSchemas} className="space-y-5">
        <Field label="Email" error={fieldErrors.email ?? serverFields.email} isRequired>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
          />
        </Field>
        <Field
          label="Password"
          error={fieldErrors.password ?? serverFields.password}
          hint={isSignIn ? undefined : EMAIL_FLOW_TEXTS.newPasswordHint}
          labelAside={
            isSignIn ? (
              <Link
                to={paths.forgotPassword.getHref()}
                className="rounded text-sm font-medium text-rose-700 underline-offset-4 hover:underline"
              >
                Forgot password?
              </Link>
            ) : undefined
          }
          isRequired
        >
          <Input
            name="password"
            type="password"
            autoComplete={isSignIn ? 'current-password' : 'new-password'}
          />
        </Field>
        <Button type="submit" size="lg" fullWidth isLoading={mutation.isPending}>
          {isSignIn ? 'Sign in' : 'Create account'}
        </Button>
      </form>

      <p className="mt-8 text-center text-sm text-stone-500">
        {isSignIn ? 'New to Aelo?' : 'Already have an account?'}{' '}
        <button
          type="button"
          onClick={() => switchMode(isSignIn ? 'sign-up' : 'sign-in')}
          className="rounded font-semibold text-rose-700 underline-offset-4 hover:underline"
        >
          {isSignIn ? 'Create an account' : 'Sign in instead'}
        </button>
      </p>
    </div>
  );
}
