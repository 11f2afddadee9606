import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Form, useActionData, useFormAction, useNavigation } from 'react-router';
import {
  CONTACT_EMAIL_MAX,
  CONTACT_MESSAGE_MAX,
  CONTACT_NAME_MAX,
  CONTACT_ORDER_MAX,
  CONTACT_TEXTS,
  ContactInputSchema,
} from '#common/schemas/contact';
import { LocalMailNote } from '#web/components/local-mail-note';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Textarea } from '#web/components/ui/textarea';
import { fieldErrors } from '#web/lib/form-data';
import { contactFormValues, type ContactFormResult, type ContactFormValues } from '../api/contact';

/** How long the message typed so far is. */
function messageLengthOf(form: HTMLFormElement): number {
  const field = form.elements.namedItem('message');
  return field instanceof HTMLTextAreaElement ? field.value.length : 0;
}

/**
 * The contact form for guests: name, email, order number (optional) and message. A route form
 * posting to /contact's action (routes/storefront/contact.tsx), which checks it with the shared
 * schema and sends it: a press before the code arrives, or without JavaScript, is a plain form post
 * with the same answer. Once live, the shared schema checks it first and the counter follows the
 * message.
 */
export function ContactForm() {
  const result = useActionData<ContactFormResult>();
  const navigation = useNavigation();
  const action = useFormAction();
  const formRef = useRef<HTMLFormElement>(null);
  const [messageLength, setMessageLength] = useState<number | null>(null);
  const [clientFailure, setClientFailure] = useState<
    { message: string; fields: Partial<Record<keyof ContactFormValues, string>> } | undefined
  >();
  const answered = useRef(result);

  const isSubmitting = navigation.state !== 'idle' && navigation.formAction === action;
  const failed = result && 'error' in result ? result : undefined;
  const values = failed?.values;
  const isSent = !isSubmitting && !clientFailure && result !== undefined && 'sent' in result;
  const failure = isSubmitting ? undefined : (clientFailure ?? failed?.error);
  const length = messageLength ?? values?.message.length ?? 0;

  useLayoutEffect(() => {
    if (formRef.current) setMessageLength(messageLengthOf(formRef.current));
  }, []);

  // Sent: the form starts again empty (an answer the page was rendered with is not new).
  useEffect(() => {
    if (result === answered.current) return;
    answered.current = result;
    const form = formRef.current;
    if (!form || !result || !('sent' in result)) return;
    form.reset();
    setMessageLength(messageLengthOf(form));
  }, [result]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = ContactInputSchema.safeParse(contactFormValues(new FormData(event.currentTarget)));
    if (!parsed.success) {
      event.preventDefault();
      setClientFailure({
        message: parsed.error.issues[0]?.message ?? CONTACT_TEXTS.failed,
        fields: fieldErrors(parsed.error),
      });
      return;
    }
    setClientFailure(undefined);
  };

  return (
    <section
      aria-labelledby="contact-form"
      className="rounded-3xl bg-white p-6 shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80 sm:p-8"
    >
      <h2 id="contact-form" className="text-lg font-semibold text-stone-950">
        Send us a message
      </h2>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {isSent ? (
          <Alert variant="success">
            {CONTACT_TEXTS.sent}
            <LocalMailNote />
          </Alert>
        ) : null}
        {failure ? <Alert variant="error">{failure.message}</Alert> : null}
      </div>
      <Form
        ref={formRef}
        method="post"
        preventScrollReset
        noValidate
        onSubmit={onSubmit}
        onChange={(event) => {
          setMessageLength(messageLengthOf(event.currentTarget));
          // What was refused is being corrected: the counter shows again under the message.
          setClientFailure(undefined);
        }}
        className="mt-5 space-y-5"
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Name" isRequired error={failure?.fields?.name}>
            <Input name="name" autoComplete="name" defaultValue={values?.name} maxLength={CONTACT_NAME_MAX} />
          </Field>
          <Field label="Email" isRequired error={failure?.fields?.email}>
            <Input
              name="email"
              type="email"
              autoComplete="email"
              defaultValue={values?.email}
              maxLength={CONTACT_EMAIL_MAX}
            />
          </Field>
        </div>
        <Field
          label="Order number (optional)"
          error={failure?.fields?.orderNumber}
          hint="From your order email, e.g. #a1b2c3d4. With the email you ordered with, our answers also show on your order's page."
        >
          <Input name="orderNumber" defaultValue={values?.orderNumber} maxLength={CONTACT_ORDER_MAX} />
        </Field>
        <Field
          label="Message"
          isRequired
          error={failure?.fields?.message}
          hint={`${CONTACT_MESSAGE_MAX - length} characters remaining`}
        >
          <Textarea
            name="message"
            rows={6}
            defaultValue={values?.message}
            maxLength={CONTACT_MESSAGE_MAX}
            placeholder="How can we help?"
          />
        </Field>
        <Button type="submit" size="lg" isLoading={isSubmitting} className="w-full sm:w-auto">
          Send message
        </Button>
      </Form>
    </section>
  );
}
