import { Send } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { MessageReplyInputSchema, REPLY_BODY_MAX } from '#common/schemas/support-threads';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Textarea } from '#web/components/ui/textarea';

/**
 * Writing under a support message (the admin's reply, the customer's follow-up): a text with the
 * characters left, checked with the shared schema, Send disabled while it is blank. `send`
 * resolves when the server has it (the text is cleared then) and rejects with what to show.
 */
export function ReplyForm({
  label,
  placeholder,
  submitLabel,
  send,
  isPending,
  error,
  notice,
}: {
  label: string;
  placeholder?: string;
  submitLabel: string;
  send: (body: string) => Promise<unknown>;
  isPending: boolean;
  /** What went wrong with the last send (shown under the text). */
  error?: string | undefined;
  /** Shown after a send went through (e.g. the sent text and where the mail is). */
  notice?: ReactNode;
}) {
  const [body, setBody] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const [sent, setSent] = useState(false);
  const isBlank = body.trim() === '';

  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = MessageReplyInputSchema.safeParse({ body });
        if (!parsed.success) {
          setInvalid(parsed.error.issues[0]?.message);
          return;
        }
        setInvalid(undefined);
        setSent(false);
        send(parsed.data.body).then(
          () => {
            setBody('');
            setSent(true);
          },
          () => undefined,
        );
      }}
    >
      <Field
        label={label}
        error={invalid ?? error}
        hint={`${REPLY_BODY_MAX - body.length} characters remaining`}
      >
        <Textarea
          rows={3}
          value={body}
          maxLength={REPLY_BODY_MAX}
          placeholder={placeholder}
          onChange={(e) => {
            setBody(e.target.value);
            setSent(false);
          }}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={isBlank} isLoading={isPending}>
          <Send className="size-4" aria-hidden="true" />
          {submitLabel}
        </Button>
      </div>
      {sent && notice ? <Alert variant="success">{notice}</Alert> : null}
    </form>
  );
}
