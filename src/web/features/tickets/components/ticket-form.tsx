import { useState, type FormEvent } from 'react';
import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_CONTENT_MAX,
  TICKET_SUBJECT_MAX,
  TICKET_TEXTS,
  TicketCreateSchema,
  type TicketCategory,
} from '#common/schemas/tickets';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { Textarea } from '#web/components/ui/textarea';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { useCurrentUser } from '#web/lib/current-user';
import { useCreateTicket } from '../api/tickets';

/** The spec's error for a failed create: a lapsed session, the server's message, or the fallback. */
function createError(error: unknown): string {
  if (isApiError(error) && error.status === 401) return TICKET_TEXTS.unauthorized;
  return errorMessage(error, TICKET_TEXTS.failed);
}

/** New support ticket: category, subject (≤100), description (≤2000) with the characters left. */
export function TicketForm() {
  const create = useCreateTicket();
  const { user } = useCurrentUser();
  const [category, setCategory] = useState<TicketCategory>('general');
  const [subject, setSubject] = useState('');
  const [content, setContent] = useState('');
  const [formError, setFormError] = useState<string | undefined>();
  const [created, setCreated] = useState(false);
  const isEmpty = subject.trim() === '' || content.trim() === '';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCreated(false);
    if (!user) {
      setFormError(TICKET_TEXTS.loginToCreate);
      return;
    }
    const parsed = TicketCreateSchema.safeParse({ category, subject, content });
    if (!parsed.success) {
      setFormError(parsed.error.issues[0]?.message ?? TICKET_TEXTS.required);
      return;
    }
    setFormError(undefined);
    create.mutate(parsed.data, {
      onSuccess: () => {
        setSubject('');
        setContent('');
        setCategory('general');
        setCreated(true);
      },
      onError: (error) => setFormError(createError(error)),
    });
  };

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
        {created ? <Alert variant="success">{TICKET_TEXTS.created}</Alert> : null}
        {formError ? <Alert variant="error">{formError}</Alert> : null}
        {user ? null : <Alert variant="info">{TICKET_TEXTS.loginToSend}</Alert>}
      </div>
      <form onSubmit={onSubmit} className="mt-5 space-y-5" noValidate>
        <Field label="Category">
          <Select
            name="category"
            value={category}
            onChange={(e) => setCategory(e.target.value as TicketCategory)}
          >
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
            value={subject}
            maxLength={TICKET_SUBJECT_MAX}
            placeholder="Brief description of your issue"
            onChange={(e) => setSubject(e.target.value)}
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
            value={content}
            maxLength={TICKET_CONTENT_MAX}
            placeholder="Tell us what happened, with your order number if it is about an order"
            onChange={(e) => setContent(e.target.value)}
          />
        </Field>
        <Button type="submit" disabled={isEmpty} isLoading={create.isPending}>
          Submit Ticket
        </Button>
      </form>
    </section>
  );
}
