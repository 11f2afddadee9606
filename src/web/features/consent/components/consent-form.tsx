import type { FormEvent, ReactNode } from 'react';
import { useLocation } from 'react-router';
import { answerOf, CONSENT_ACTION, RETURN_FIELD } from '../consent-post';
import { writeStoredFlag } from '../hooks/use-stored-flag';

/**
 * A consent prompt's buttons as a real form (consent-post.ts). A press before the app's code has
 * arrived posts it: the consent route sets the cookie and brings the shopper back to this page
 * (the disclaimer also closes at once, see Modal in components/ui/dialog.tsx). Once live, the page
 * stores the answer itself, cookie and localStorage, without a navigation.
 */
export function ConsentForm({
  id,
  className,
  children,
}: {
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  const { pathname, search } = useLocation();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const answer = answerOf((event.nativeEvent as SubmitEvent).submitter);
    // Not an answer (nothing of ours submits one): left to the server, which refuses it.
    if (!answer) return;
    event.preventDefault();
    writeStoredFlag(answer.key, answer.value);
  };
  return (
    <form id={id} method="post" action={CONSENT_ACTION} onSubmit={onSubmit} className={className}>
      <input type="hidden" name={RETURN_FIELD} value={`${pathname}${search}`} />
      {children}
    </form>
  );
}
