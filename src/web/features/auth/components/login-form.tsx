import { useState, type FormEvent } from 'react';
import { Form, Link, useSearchParams } from 'react-router';
import { EMAIL_FLOW_TEXTS } from '#common/email-flow-texts';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { paths } from '#web/config/paths';
import { formText } from '#web/lib/form-data';
import { useShopName } from '#web/lib/shop-name';
import { loadAuthSchemas, preloadAuthSchemas } from '../api/auth-schemas';
import { INTENT, type LoginResult } from '../api/form-results';
import { useActionResult, useFormPost } from '../hooks/use-form-post';
import { SignInCodeStep } from './sign-in-code-step';
import { TwoFactorStep } from './two-factor-step';
import { LocalMailNote } from '#web/components/local-mail-note';

type Mode = 'sign-in' | 'sign-up';
type FieldErrors = Partial<Record<'email' | 'password', string>>;

/** The query that opens the form in sign-up mode (the mode switch without JavaScript). */
export const MODE_PARAM = 'mode';

function firstIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if ((key === 'email' || key === 'password') && !out[key]) out[key] = issue.message;
  }
  return out;
}

/**
 * One form that toggles between signing in and creating an account, posted to /login's action
 * (which signs in and sends the user to their account), then the sign-in's later steps. Without
 * JavaScript the mode switch is a link-like GET of /login?mode=…; with it, the switch is local.
 */
export function LoginForm() {
  const [result, setAside] = useActionResult<LoginResult>();
  const { post, pendingIntent } = useFormPost();
  const [params] = useSearchParams();
  const shopName = useShopName();
  const [mode, setMode] = useState<Mode>(() =>
    result?.step === 'credentials'
      ? result.mode
      : params.get(MODE_PARAM) === 'sign-up'
        ? 'sign-up'
        : 'sign-in',
  );
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  // The credentials of the last post from this page, for the code step (it sends them again).
  const [sent, setSent] = useState<{ email: string; password: string } | null>(null);

  const switchMode = (next: Mode) => {
    setMode(next);
    setFieldErrors({});
    setAside();
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
    setSent({ email: parsed.data.email, password: raw.password });
    post(form);
  };

  if (result?.step === 'two-factor') return <TwoFactorStep result={result} />;
  if (result?.step === 'sign-in-code') {
    return (
      <SignInCodeStep
        result={result}
        password={sent?.email === result.email ? sent.password : undefined}
        onBack={setAside}
      />
    );
  }

  const isSignIn = mode === 'sign-in';
  const pending = pendingIntent === mode;
  const shown = result?.step === 'credentials' && result.mode === mode && !pending ? result : undefined;
  const serverFields: FieldErrors = shown?.failure?.fields ?? {};
  const emailError = fieldErrors.email ?? serverFields.email;
  const passwordError = fieldErrors.password ?? serverFields.password;

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

      {shown?.failure?.message && !serverFields.email && !serverFields.password ? (
        <Alert variant="error" className="mb-6">
          {shown.failure.message}
        </Alert>
      ) : null}
      {shown?.checkEmail ? (
        <Alert variant="info" className="mb-6">
          {EMAIL_FLOW_TEXTS.signUpCheckEmail}
          <LocalMailNote />
        </Alert>
      ) : null}

      <Form
        method="post"
        onSubmit={(event) => void onSubmit(event)}
        onFocus={preloadAuthSchemas}
        className="space-y-5"
      >
        <input type="hidden" name={INTENT} value={mode} />
        <Field label="Email" error={emailError} isRequired>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            defaultValue={result?.step === 'credentials' ? result.email : undefined}
          />
        </Field>
        <Field
          label="Password"
          error={passwordError}
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
        <Button type="submit" size="lg" fullWidth isLoading={pending}>
          {isSignIn ? 'Sign in' : 'Create account'}
        </Button>
      </Form>

      {/* The mode switch: a GET of /login?mode=… without JavaScript, local with it. */}
      <form method="get" action={paths.login.getHref()} className="mt-8 text-center text-sm text-stone-500">
        {isSignIn ? `New to ${shopName}?` : 'Already have an account?'}{' '}
        <button
          type="submit"
          name={MODE_PARAM}
          value={isSignIn ? 'sign-up' : 'sign-in'}
          onClick={(event) => {
            event.preventDefault();
            switchMode(isSignIn ? 'sign-up' : 'sign-in');
          }}
          className="rounded font-semibold text-rose-700 underline-offset-4 hover:underline"
        >
          {isSignIn ? 'Create an account' : 'Sign in instead'}
        </button>
      </form>
    </div>
  );
}
