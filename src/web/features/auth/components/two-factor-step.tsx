import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-router';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { formText } from '#web/lib/form-data';
import {
  INTENT,
  normalizeCode,
  twoFactorCodeProblem,
  type SignInStepResult,
  type TwoFactorKind,
} from '../api/form-results';
import { useFormPost } from '../hooks/use-form-post';

/**
 * The sign-in's second step for an account with two-factor on: a code from the app, or a backup
 * code. Posted to the page's action (intent 'two-factor'), which signs in and sends the user on.
 * The switch to a backup code is local with the page's code, a post of its own without it.
 */
export function TwoFactorStep({
  result,
  variant = 'primary',
}: {
  result: Extract<SignInStepResult, { step: 'two-factor' }>;
  variant?: 'primary' | 'secondary';
}) {
  const { post, pendingIntent } = useFormPost();
  const [kind, setKind] = useState<TwoFactorKind>(result.kind);
  const [fieldError, setFieldError] = useState<string | undefined>();
  // The answer a switch of kind set aside (its error was about the other kind of code).
  const [setAside, setSetAside] = useState<typeof result | null>(null);
  const pending = pendingIntent === 'two-factor';
  const failure = pending || setAside === result ? undefined : result.failure;
  const other: TwoFactorKind = kind === 'totp' ? 'backup' : 'totp';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const code = normalizeCode(formText(form, 'code'));
    const problem = twoFactorCodeProblem(kind, code);
    setFieldError(problem);
    if (problem) return;
    form.set('code', code);
    post(form);
  };

  return (
    <div className="space-y-6">
      <div className="flex items-start gap-3">
        <ShieldCheck className="mt-0.5 size-6 shrink-0 text-rose-600" aria-hidden="true" />
        <div>
          <h2 className="text-lg font-semibold text-stone-950">Two-factor authentication</h2>
          <p className="text-sm text-stone-500">
            {kind === 'totp'
              ? 'Enter the 6-digit code from your authenticator app.'
              : 'Enter one of the backup codes you saved. Each works once.'}
          </p>
        </div>
      </div>
      {failure?.message && !failure.fields?.code ? <Alert variant="error">{failure.message}</Alert> : null}
      <Form method="post" onSubmit={onSubmit} className="space-y-5" noValidate>
        <input type="hidden" name={INTENT} value="two-factor" />
        <input type="hidden" name="kind" value={kind} />
        <Field
          label={kind === 'totp' ? 'Authentication code' : 'Backup code'}
          error={fieldError ?? failure?.fields?.code}
          isRequired
        >
          <Input
            key={kind}
            name="code"
            autoComplete="one-time-code"
            inputMode={kind === 'totp' ? 'numeric' : 'text'}
          />
        </Field>
        <Button type="submit" size="lg" variant={variant} fullWidth isLoading={pending}>
          Verify
        </Button>
      </Form>
      <Form method="post">
        <input type="hidden" name={INTENT} value="two-factor-kind" />
        <button
          type="submit"
          name="kind"
          value={other}
          onClick={(event) => {
            event.preventDefault();
            setKind(other);
            setFieldError(undefined);
            setSetAside(result);
          }}
          className="text-sm font-medium text-rose-700 underline-offset-4 hover:underline"
        >
          {kind === 'totp' ? 'Use a backup code instead' : 'Use the authenticator app instead'}
        </button>
      </Form>
    </div>
  );
}
