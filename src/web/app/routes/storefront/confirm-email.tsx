import { useMemo } from 'react';
import { useSearchParams, type ActionFunctionArgs, type ClientActionFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import { PageTitle } from '#web/components/page-title';
import type { ConfirmEmailChangeResult } from '#web/features/auth/api/email-flow-results';
import { confirmEmailChangeAction } from '#web/features/auth/api/email-flow-actions.server';
import { postWithSession } from '#web/features/auth/api/session-sync';
import { AuthCard } from '#web/features/auth/components/auth-card';
import { ConfirmEmailChange } from '#web/features/auth/components/email-change';

export default function StorefrontConfirmEmailPage() {
  const [params] = useSearchParams();
  const user = params.get('user');
  const email = params.get('email');
  const token = params.get('token');
  const link = useMemo(() => (user && email && token ? { user, email, token } : null), [user, email, token]);
  return (
    <AuthCard>
      <PageTitle title="Confirm your new email" />
      <ConfirmEmailChange link={link} />
    </AuthCard>
  );
}

/** The new address's confirmation: a form post, with JavaScript or without. */
export function action(args: ActionFunctionArgs<PageContext>) {
  return confirmEmailChangeAction(args);
}

/** With the page's code: the same post, then whatever showed the old address loads again. */
export function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  // No answer: the page says the link did not work (EMAIL_CHANGE_TEXTS.badLink).
  return postWithSession<ConfirmEmailChangeResult>(request, serverAction, () => ({ failure: {} }));
}
