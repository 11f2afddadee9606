import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Form, useActionData, useFormAction, useNavigation } from 'react-router';
import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_CONTENT_MAX,
  TICKET_SUBJECT_MAX,
  TICKET_TEXTS,
  TicketCreateSchema,
} from '#common/schemas/tickets';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { Textarea } from '#web/components/ui/textarea';
import { useCurrentUser } from '#web/lib/current-user';
import { ticketFormValues, type TicketFormResult } from '../api/tickets';

/** What the subject and description hold now, as the browser has them. */
interface Typed {
  subject: string;
  content: string;
}

function typedIn(form: HTMLFormElement): Typed {
  const { subject, content } = ticketFormValues(new FormData(form));
  return { subject, content };
}

/**
 * New support ticket: category, subject (≤100), description (≤2000) with the characters left.
 *
 * A route form posting to the messages page's action (routes/account/messages.tsx), which checks it
 * with the shared schema and creates the ticket: a press before the code has arrived is a plain
 * form post and gets the same answer. The fields are uncontrolled, so what was typed before the
 * page hydrated stays (React keeps an uncontrolled field's value), and is read from the page once
 * it is live for the counter and for Submit, which is disabled while the subject or description is
 * blank. The server's HTML leaves Submit enabled (without the code nothing would enable it again):
 * the fields are `required`, and the server answers a blank one with the spec's message.
 */
export function TicketForm() {
  const result = useActionData<TicketFormResult>();
  const navigation = useNavigation();
  const action = useFormAction();
  const { user } = useCurrentUser();
  const formRef = useRef<HTMLFormElement>(null);
  // null on the server and while hydrating (the first render matches the HTML), then read from the page.
  const [typed, setTyped] = useState<Typed | null>(null);
  const [clientError, setClientError] = useState<string | undefined>();
  const answered = useRef(result);

  const isSubmitting = navigation.state !== 'idle' && navigation.formAction === action;
  const failed = result && 'error' in result ? result : undefined;
  const values = failed?.values;
  const content = typed?.content ?? values?.content ?? '';
  const isBlank = typed !== null && (typed.subject.trim() === '' || typed.content.trim() === '');

  // Before the page counts as live (a layout effect runs before any page's effects and paint).
  useLayoutEffect(() => {
    if (formRef.current) setTyped(typedIn(formRef.current));
  }, []);

  // A ticket created: the form starts again empty (an answer the page was rendered with is not new).
  useEffect(() => {
    if (result === answered.current) return;
    answered.current = result;
    const form = formRef.current;
    if (!form || !result || !('created' in result)) return;
    for (const [name, value] of [
      ['category', 'general'],
      ['subject', ''],
      ['content', ''],
    ] as const) {
      const field = form.elements.namedItem(name);
      if (
        field instanceof HTMLInputElement ||
        field instanceof HTMLTextAreaElement ||
        field instanceof HTMLSelectElement
      )
        field.value = value;
    }
    setTyped(typedIn(form));
  }, [result]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!user) {
      event.preventDefault();
      setClientError(TICKET_TEXTS.loginToCreate);
      return;
    }
    const parsed = TicketCreateSchema.safeParse(ticketFormValues(new FormData(event.currentTarget)));
    if (!parsed.success) {
      event.preventDefault();
      setClientError(parsed.error.issues[0]?.message ?? TICKET_TEXTS.required);
      return;
    }
    // Valid: React Router posts it to the action.
    setClientError(undefined);
  };

  const message = isSubmitting ? undefined : (clientError ?? failed?.error.message);
  const fields = isSubmitting || clientError ? undefined : failed?.error.fields;

  return (
    <section
      aria-labelledby="new-ticket"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6"
    >
      <h2 id="new-ticket" className="text-lg font-semibold text-stone-950">
        New support ticket
      </h2>
      <p className="mt-1 text-sm text-stone-500">
        Questions about an order, a product or your account? We usually answer within a day.
      </p>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {!isSubmitting && !clientError && result && 'created' in result ? (
          <Alert variant="success">{TICKET_TEXTS.created}</Alert>
        ) : null}
        {message ? <Alert variant="error">{message}</Alert> : null}
        {user ? null : <Alert variant="info">{TICKET_TEXTS.loginToSend}</Alert>}
      </div>
      <Form
        ref={formRef}
        method="post"
        preventScrollReset
        onSubmit={onSubmit}
        onChange={(event) => setTyped(typedIn(event.currentTarget))}
        className="mt-5 space-y-5"
      >
        <Field label="Category">
          <Select name="category" defaultValue={values?.category ?? 'general'}>
            {TICKET_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {TICKET_CATEGORY_LABELS[c]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Subject" isRequired>
          <Input
            name="subject"
            defaultValue={values?.subject}
            maxLength={TICKET_SUBJECT_MAX}
            isInvalid={Boolean(fields?.subject)}
            placeholder="Brief description of your issue"
          />
        </Field>
        <Field
          label="Description"
          isRequired
          hint={`${TICKET_CONTENT_MAX - content.length} characters remaining`}
        >
          <Textarea
            name="content"
            rows={6}
            defaultValue={values?.content}
            maxLength={TICKET_CONTENT_MAX}
            isInvalid={Boolean(fields?.content)}
            placeholder="Tell us what happened, with your order number if it is about an order"
          />
        </Field>
        <Button type="submit" disabled={isBlank} isLoading={isSubmitting}>
          Submit Ticket
        </Button>
      </Form>
    </section>
  );
}
