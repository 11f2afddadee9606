import { AtSign, MailCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Form, Link } from 'react-router';
import { EMAIL_CHANGE_TEXTS, EmailChangeInputSchema, type EmailChangeConfirm } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { fieldErrors, formText } from '#web/lib/form-data';
import type { ConfirmEmailChangeResult } from '../api/email-flow-results';
import { useEmailStatus, useRequestEmailChange } from '../api/email-flows';
import { INTENT } from '../api/form-results';
import { useActionResult, useFormPost } from '../hooks/use-form-post';
import { LocalMailNote } from '#web/components/local-mail-note';

/** The account's email, confirmed or not, and a change that the new address must confirm. */
export function EmailSettings() {
  const status = useEmailStatus();
  const change = useRequestEmailChange();
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = EmailChangeInputSchema.safeParse({
      newEmail: formText(data, 'newEmail'),
      password: formText(data, 'password'),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: () => setOpen(false),
      onError: (error) => {
        if (isApiError(error)) setErrors(error.fields);
      },
    });
  };
  const fieldError = Boolean(errors.newEmail ?? errors.password);

  return (
    <section
      aria-labelledby="email-heading"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="email-heading" className="flex items-center gap-2 text-lg font-semibold text-stone-950">
            <AtSign className="size-4 text-stone-400" aria-hidden="true" />
            Email address
          </h2>
          {status.data ? (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm break-all text-stone-700">
              {status.data.email}
              <Badge tone={status.data.verified ? 'green' : 'orange'}>
                {status.data.verified ? 'Confirmed' : 'Not confirmed'}
              </Badge>
            </p>
          ) : (
            <Skeleton className="mt-2 h-5 w-56" />
          )}
        </div>
        {open ? null : (
          <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
            Change email
          </Button>
        )}
      </div>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {change.isSuccess && !open ? (
          <Alert variant="success">
            {EMAIL_CHANGE_TEXTS.sent}
            <LocalMailNote />
          </Alert>
        ) : null}
        {change.isError && !fieldError ? <Alert variant="error">{errorMessage(change.error)}</Alert> : null}
      </div>
      {open ? (
        <form onSubmit={onSubmit} noValidate className="mt-5 grid gap-5 sm:grid-cols-2">
          <Field label="New email" error={errors.newEmail}>
            <Input name="newEmail" type="email" autoComplete="email" inputMode="email" />
          </Field>
          <Field label="Password" error={errors.password}>
            <Input name="password" type="password" autoComplete="current-password" />
          </Field>
          <div className="flex gap-3 sm:col-span-2">
            <Button type="submit" variant="secondary" isLoading={change.isPending}>
              Send confirmation link
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

/**
 * /confirm-email: the new address's mailed link changes the account's email. The link's parts go
 * in a form posted to the page's action: with the page's code it is sent as soon as the page is
 * live (the link is the confirmation); before that, or without JavaScript, the button sends it.
 */
export function ConfirmEmailChange({ link }: { link: EmailChangeConfirm | null }) {
  const [result] = useActionResult<ConfirmEmailChangeResult>();
  const { post, pendingIntent } = useFormPost();
  const form = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (!link || result || sent.current || !form.current) return;
    sent.current = true;
    post(new FormData(form.current));
  }, [link, result, post]);

  if (result && 'done' in result) {
    return (
      <div className="text-center" role="status">
        <MailCheck className="mx-auto size-12 text-emerald-600" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-stone-950">Email changed</h1>
        <p className="mt-3 text-[15px] text-stone-600">
          {EMAIL_CHANGE_TEXTS.confirmed} Sign in with {link?.email} from now on.
        </p>
        <Link
          to={paths.profile.settings.getHref()}
          className="mt-6 inline-block text-sm font-semibold text-rose-700 hover:underline"
        >
          Go to your settings
        </Link>
      </div>
    );
  }
  if ((result && 'failure' in result) || !link) {
    return (
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-950">Confirmation failed</h1>
        <Alert variant="error" className="mt-5">
          {link ? (result?.failure.message ?? EMAIL_CHANGE_TEXTS.badLink) : 'This link is incomplete'}
        </Alert>
      </div>
    );
  }
  if (pendingIntent === 'confirm-email-change') {
    return (
      <div className="flex flex-col items-center py-6 text-center" role="status">
        <Spinner label={null} />
        <p className="mt-4 text-[15px] text-stone-600">Confirming your new email address…</p>
      </div>
    );
  }
  return (
    <Form ref={form} method="post" className="text-center">
      <MailCheck className="mx-auto size-12 text-rose-600" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-semibold tracking-tight text-stone-950">Confirm your new email</h1>
      <p className="mt-3 text-[15px] break-words text-stone-600">
        Your account&apos;s email changes to <span className="font-medium text-stone-900">{link.email}</span>.
      </p>
      <input type="hidden" name={INTENT} value="confirm-email-change" />
      <input type="hidden" name="user" value={link.user} />
      <input type="hidden" name="email" value={link.email} />
      <input type="hidden" name="token" value={link.token} />
      <Button type="submit" size="lg" fullWidth className="mt-6">
        Confirm new email
      </Button>
    </Form>
  );
}
