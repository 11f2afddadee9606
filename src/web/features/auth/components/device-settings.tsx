import { KeyRound, Laptop, Smartphone } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { PasswordChangeInputSchema, SESSION_TEXTS, type AccountSession } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { fieldErrors, formText } from '#web/lib/form-data';
import { useDateFormatter } from '#web/lib/local-time';
import { useChangePassword, useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions';

const card = 'rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6';
function SessionRow({ session }: { session: AccountSession }) {
  const revoke = useRevokeSession();
  const formatDate = useDateFormatter();
  const when = (iso: string) => formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  const Icon = /iPhone|Android/.test(session.device) ? Smartphone : Laptop;
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <Icon className="size-5 shrink-0 text-stone-400" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-stone-900">
          {session.device}
          {session.current ? (
            <Badge tone="green" className="ml-2">
              This device
            </Badge>
          ) : null}
        </p>
        <p className="text-xs text-stone-500">
          Last active {when(session.lastActiveAt)}
          {session.ipAddress ? ` · ${session.ipAddress}` : ''}
        </p>
      </div>
      {session.current ? null : (
        <Button
          size="sm"
          variant="ghost"
          isLoading={revoke.isPending}
          onClick={() => revoke.mutate(session.id)}
          aria-label={`Sign out ${session.device}, last active ${when(session.lastActiveAt)}`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

/** The customer's signed-in devices, each with sign-out, and sign-out of all the others. */
export function SessionsSettings() {
  const query = useSessions();
  const others = useRevokeOtherSessions();
  const count = query.data?.sessions.filter((s) => !s.current).length ?? 0;
  return (
    <section aria-labelledby="devices-heading" className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="devices-heading" className="text-lg font-semibold text-stone-950">
            Signed-in devices
          </h2>
          <p className="mt-1 text-sm text-stone-500">Sign out anywhere you do not recognise.</p>
        </div>
        {count > 0 ? (
          <Button size="sm" variant="outline" isLoading={others.isPending} onClick={() => others.mutate()}>
            Sign out other devices
          </Button>
        ) : null}
      </div>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {others.isSuccess ? <Alert variant="success">{SESSION_TEXTS.othersSignedOut}</Alert> : null}
        {others.isError ? <Alert variant="error">{errorMessage(others.error)}</Alert> : null}
      </div>
      {query.isError ? (
        <Alert variant="error" className="mt-4">
          {errorMessage(query.error, 'Failed to load your devices')}
        </Alert>
      ) : query.isPending ? (
        <Skeleton className="mt-4 h-24 w-full rounded-xl" />
      ) : (
        <ul className="mt-2 divide-y divide-stone-100" aria-label="Devices">
          {query.data.sessions.map((s) => (
            <SessionRow key={s.id} session={s} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Password change: the current password and a new one; every other device is signed out. */
export function PasswordSettings() {
  const change = useChangePassword();
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const parsed = PasswordChangeInputSchema.safeParse({
      currentPassword: formText(data, 'currentPassword'),
      newPassword: formText(data, 'newPassword'),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: () => form.reset(),
      onError: (error) => {
        if (isApiError(error)) setErrors(error.fields);
      },
    });
  };
  const fieldError = Boolean(errors.currentPassword ?? errors.newPassword);
  return (
    <section aria-labelledby="password-heading" className={card}>
      <div className="flex items-start gap-3">
        <KeyRound className="mt-1 size-5 text-stone-400" aria-hidden="true" />
        <div>
          <h2 id="password-heading" className="text-lg font-semibold text-stone-950">
            Password
          </h2>
          <p className="mt-1 text-sm text-stone-500">Changing it signs out every other device.</p>
        </div>
      </div>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {change.isSuccess ? <Alert variant="success">{SESSION_TEXTS.passwordChanged}</Alert> : null}
        {change.isError && !fieldError ? <Alert variant="error">{errorMessage(change.error)}</Alert> : null}
      </div>
      <form onSubmit={onSubmit} noValidate className="mt-5 grid gap-5 sm:grid-cols-2">
        <Field label="Current password" error={errors.currentPassword}>
          <Input name="currentPassword" type="password" autoComplete="current-password" />
        </Field>
        <Field
          label="New password"
          error={errors.newPassword}
          hint="At least 8 characters; a passphrase is best."
        >
          <Input name="newPassword" type="password" autoComplete="new-password" />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" variant="secondary" isLoading={change.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}
