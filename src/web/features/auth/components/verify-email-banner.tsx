import { MailWarning } from 'lucide-react';
import { EMAIL_FLOW_TEXTS } from '#common/email-flow-texts';
import { LocalMailNote } from '#web/components/local-mail-note';
import { Button } from '#web/components/ui/button';
import { errorMessage } from '#web/lib/api-client';
import { useEmailStatus, useResendVerification } from '../api/email-flows';

/**
 * Shown in the account area until the account's email is confirmed: orders placed with that email
 * show only then (anyone could sign up with a stranger's address), and a new link is one click away.
 */
export function VerifyEmailBanner() {
  const status = useEmailStatus();
  const resend = useResendVerification();
  if (!status.data || status.data.verified) return null;
  return (
    <div
      role="status"
      className="mb-8 flex flex-col gap-3 rounded-2xl bg-amber-50 p-4 ring-1 ring-amber-200 sm:flex-row sm:items-center"
    >
      <MailWarning className="size-5 shrink-0 text-amber-700" aria-hidden="true" />
      <div className="flex-1 text-sm text-amber-950">
        <p className="font-semibold">Confirm your email address</p>
        <p className="mt-0.5">
          {resend.isSuccess
            ? EMAIL_FLOW_TEXTS.verificationSent
            : resend.error
              ? errorMessage(resend.error, 'Failed to send the link')
              : `We sent a link to ${status.data.email}. Orders placed with this address show here once it is confirmed.`}
          {resend.error ? null : <LocalMailNote />}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        onClick={() => resend.mutate()}
        isLoading={resend.isPending}
        disabled={resend.isSuccess}
      >
        Send a new link
      </Button>
    </div>
  );
}
