import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { Form } from 'react-router';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { formText } from '#web/lib/form-data';
import { INTENT, normalizeCode, signInCodeProblem, type SignInStepResult } from '../api/form-results';
import { useFormPost } from '../hooks/use-form-post';
import { LocalMailNote } from '#web/components/local-mail-note';

const linkButton = 'rounded font-medium underline-offset-4 hover:underline disabled:opacity-60';

/**
 * The sign-in's code step: after many failed sign-ins of the account (or from this address), a
 * device it never signed in on needs, besides the password, the 6-digit code mailed to the
 * account. The server answers the same whether or not the password was right, so this step says
 * so. The email and password are sent again with the code: the password the page kept from the
 * form just sent, or, when the page had no code to keep it (the form was posted before the page's
 * code arrived), typed again here. Every button posts to the page's action (its `intent`), so the
 * step works without JavaScript; with it, 'Use a different password' stays on the page.
 */
export function SignInCodeStep({
  result,
  password,
  onBack,
  variant = 'primary',
}: {
  result: Extract<SignInStepResult, { step: 'sign-in-code' }>;
  /** The password the form just sent, when the page kept it. */
  password: string | undefined;
  onBack: () => void;
  variant?: 'primary' | 'secondary';
}) {
  const { post, pendingIntent } = useFormPost();
  const [fieldErrors, setFieldErrors] = useState<{ code?: string; password?: string }>({});
  const firstInput = useRef<HTMLInputElement>(null);
  // The step replaces the form the person just sent: their focus moves to what they type next.
  useEffect(() => firstInput.current?.focus(), []);

  const pending = pendingIntent === 'sign-in-code' || pendingIntent === 'resend-code';
  const failure = pending ? undefined : result.failure;
  const resent = !pending && result.resent === true;

  /** The step's fields with the kept password, for `intent`; undefined (and the errors shown) when not sendable. */
  const formFor = (element: HTMLFormElement, intent: 'sign-in-code' | 'resend-code') => {
    const form = new FormData(element);
    form.set(INTENT, intent);
    if (password !== undefined) form.set('password', password);
    const code = normalizeCode(formText(form, 'code'));
    form.set('code', code);
    const errors = {
      code: intent === 'sign-in-code' ? signInCodeProblem(code) : undefined,
      password: formText(form, 'password') === '' ? 'Password is required' : undefined,
    };
    setFieldErrors(errors);
    return errors.code || errors.password ? undefined : form;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = formFor(event.currentTarget, 'sign-in-code');
    if (form) post(form);
  };

  const sendNewCode = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    const element = event.currentTarget.form;
    const form = element ? formFor(element, 'resend-code') : undefined;
    if (!form) return;
    form.delete('code');
    post(form);
  };

  const codeError = fieldErrors.code ?? failure?.fields?.code;
  const passwordError = fieldErrors.password ?? failure?.fields?.password;
  const message = failure?.message && !codeError && !passwordError ? failure.message : undefined;

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
            <span className="font-medium break-words text-stone-800">{result.email}</span>. It works once, for
            10 minutes.
            <LocalMailNote className="mt-1 block font-medium text-stone-700" />
          </p>
        </div>
      </div>
      {message ? (
        <Alert variant="error">{message}</Alert>
      ) : resent ? (
        <Alert variant="info">If the password is right, a new code is on its way.</Alert>
      ) : null}
      {/* Without a hidden intent: the button pressed names it (Enter presses the first, Sign in). */}
      <Form method="post" onSubmit={onSubmit} className="space-y-5" noValidate>
        <input type="hidden" name="email" value={result.email} />
        {password === undefined ? (
          <Field label="Password" error={passwordError} isRequired>
            <Input name="password" type="password" autoComplete="current-password" ref={firstInput} />
          </Field>
        ) : null}
        <Field label="Sign-in code" error={codeError} isRequired>
          <Input
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={7}
            ref={password === undefined ? undefined : firstInput}
            className="text-center font-mono text-lg tracking-[0.4em] sm:text-lg"
          />
        </Field>
        <Button
          type="submit"
          name={INTENT}
          value="sign-in-code"
          size="lg"
          variant={variant}
          fullWidth
          isLoading={pendingIntent === 'sign-in-code'}
        >
          Sign in
        </Button>
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 pt-1 text-sm">
          <button
            type="submit"
            name={INTENT}
            value="resend-code"
            formNoValidate
            onClick={sendNewCode}
            disabled={pendingIntent === 'resend-code'}
            className={`${linkButton} text-rose-700`}
          >
            Send a new code
          </button>
          <button
            type="submit"
            name={INTENT}
            value="back"
            formNoValidate
            onClick={(event) => {
              event.preventDefault();
              onBack();
            }}
            className={`${linkButton} text-stone-600 hover:text-stone-900`}
          >
            Use a different password
          </button>
        </div>
      </Form>
    </div>
  );
}
