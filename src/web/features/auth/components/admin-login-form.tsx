import { useState, type FormEvent } from 'react';
import { Form } from 'react-router';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { formText } from '#web/lib/form-data';
import { loadAuthSchemas, preloadAuthSchemas } from '../api/auth-schemas';
import { ADMIN_LOGIN_FALLBACK, INTENT, type AdminLoginResult } from '../api/form-results';
import { useActionResult, useFormPost } from '../hooks/use-form-post';
import { SignInCodeStep } from './sign-in-code-step';
import { TwoFactorStep } from './two-factor-step';

export interface AdminLoginFormProps {
  /** A message to show before anything is submitted (e.g. a customer sent here from an admin page). */
  initialError?: string | undefined;
}

/**
 * Sign-in for the back office, posted to /admin/login's action: only a user with the admin role
 * gets through (to the products list); anyone else sees the red banner.
 */
export function AdminLoginForm({ initialError }: AdminLoginFormProps) {
  const [result, setAside] = useActionResult<AdminLoginResult>();
  const { post, pendingIntent } = useFormPost();
  const [clientError, setClientError] = useState<string | undefined>();
  // The credentials of the last post from this page, for the code step (it sends them again).
  const [sent, setSent] = useState<{ email: string; password: string } | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { SignInInputSchema } = await loadAuthSchemas();
    const parsed = SignInInputSchema.safeParse({
      email: formText(form, 'email'),
      password: formText(form, 'password'),
    });
    if (!parsed.success) {
      setClientError(parsed.error.issues[0]?.message ?? ADMIN_LOGIN_FALLBACK);
      return;
    }
    setClientError(undefined);
    setSent({ email: parsed.data.email, password: parsed.data.password });
    post(form);
  };

  if (result?.step === 'two-factor') return <TwoFactorStep result={result} variant="secondary" />;
  if (result?.step === 'sign-in-code') {
    return (
      <SignInCodeStep
        result={result}
        password={sent?.email === result.email ? sent.password : undefined}
        onBack={setAside}
        variant="secondary"
      />
    );
  }

  const pending = pendingIntent === 'sign-in';
  // Until something was posted, the reason this page was opened for (e.g. 'Not authorized').
  const error = pending
    ? undefined
    : (clientError ?? (result ? result.failure?.message : sent ? undefined : initialError));
  return (
    <div className="space-y-6">
      {error ? <Alert variant="error">{error}</Alert> : null}
      <Form
        method="post"
        onSubmit={(event) => void onSubmit(event)}
        onFocus={preloadAuthSchemas}
        className="space-y-5"
      >
        <input type="hidden" name={INTENT} value="sign-in" />
        <Field label="Email" isRequired>
          <Input
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            defaultValue={result?.step === 'credentials' ? result.email : undefined}
          />
        </Field>
        <Field label="Password" isRequired>
          <Input name="password" type="password" autoComplete="current-password" />
        </Field>
        <Button type="submit" size="lg" variant="secondary" fullWidth isLoading={pending}>
          Sign in
        </Button>
      </Form>
    </div>
  );
}
