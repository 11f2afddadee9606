import { useState, type FormEvent } from 'react';
import { SignInInputSchema } from '../../../../common/schemas/auth';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api-client';
import { formText } from '../../../lib/form-data';
import { useSignIn } from '../api/sign-in';

export const NOT_AUTHORIZED_MESSAGE = 'Not authorized';

export interface AdminLoginFormProps {
  onSuccess: () => void;
  /** A message to show before anything is submitted (e.g. a customer sent here from an admin page). */
  initialError?: string | undefined;
}

/** Sign-in for the back office: only a user with the admin role gets through. */
export function AdminLoginForm({ onSuccess, initialError }: AdminLoginFormProps) {
  const signIn = useSignIn();
  const [error, setError] = useState<string | undefined>(initialError);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = SignInInputSchema.safeParse({
      email: formText(form, 'email'),
      password: formText(form, 'password'),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Failed to sign in');
      return;
    }
    setError(undefined);
    signIn.mutate(parsed.data, {
      onSuccess: (user) => {
        if (user?.role === 'admin') onSuccess();
        else setError(NOT_AUTHORIZED_MESSAGE);
      },
      onError: (err) => setError(errorMessage(err, 'Failed to sign in')),
    });
  };

  return (
    <div className="space-y-6">
      {error ? <Alert variant="error">{error}</Alert> : null}
      <form onSubmit={onSubmit} className="space-y-5">
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
