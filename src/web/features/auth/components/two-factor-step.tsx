import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { SessionUser } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { errorMessage } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import { useVerifyTwoFactor } from '../api/two-factor';

/** The sign-in's second step for an account with two-factor on: a code from the app, or a backup code. */
export function TwoFactorStep({
  onSignedIn,
  variant = 'primary',
}: {
  onSignedIn: (user: SessionUser) => void;
  variant?: 'primary' | 'secondary';
}) {
  const verify = useVerifyTwoFactor();
  const [kind, setKind] = useState<'totp' | 'backup'>('totp');
  const [fieldError, setFieldError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = formText(new FormData(event.currentTarget), 'code').replace(/\s/g, '');
    if (kind === 'totp' ? !/^\d{6}$/.test(code) : code.length < 6) {
      setFieldError(
        kind === 'totp' ? 'Enter the 6-digit code from your authenticator app' : 'Enter a backup code',
      );
      return;
    }
    setFieldError(undefined);
    verify.mutate({ code, kind }, { onSuccess: onSignedIn });
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
      {verify.error ? (
        <Alert variant="error">{errorMessage(verify.error, 'Failed to verify the code')}</Alert>
      ) : null}
      <form onSubmit={onSubmit} className="space-y-5" noValidate>
        <Field label={kind === 'totp' ? 'Authentication code' : 'Backup code'} error={fieldError} isRequired>
          <Input
            key={kind}
            name="code"
            autoComplete="one-time-code"
            inputMode={kind === 'totp' ? 'numeric' : 'text'}
          />
        </Field>
        <Button type="submit" size="lg" variant={variant} fullWidth isLoading={verify.isPending}>
          Verify
        </Button>
      </form>
      <button
        type="button"
        onClick={() => {
          setKind(kind === 'totp' ? 'backup' : 'totp');
          setFieldError(undefined);
          verify.reset();
        }}
        className="text-sm font-medium text-rose-700 underline-offset-4 hover:underline"
      >
        {kind === 'totp' ? 'Use a backup code instead' : 'Use the authenticator app instead'}
      </button>
    </div>
  );
}
