import { useSearchParams, type ActionFunctionArgs, type ClientActionFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import { PageTitle } from '#web/components/page-title';
import type { ResetPasswordResult } from '#web/features/auth/api/email-flow-results';
import { resetPasswordAction } from '#web/features/auth/api/email-flow-actions.server';
import { postWithSession } from '#web/features/auth/api/session-sync';
import { AuthCard } from '#web/features/auth/components/auth-card';
import { ResetPasswordForm } from '#web/features/auth/components/email-flow-forms';

export default function StorefrontResetPasswordPage() {
  const [params] = useSearchParams();
  return (
    <AuthCard>
      <PageTitle title="Choose a new password" />
      <ResetPasswordForm token={params.get('token') ?? ''} />
    </AuthCard>
  );
}

/** The reset link's new password (the token comes with the form): a form post, with JavaScript or without. */
export function action(args: ActionFunctionArgs<PageContext>) {
  return resetPasswordAction(args);
}

/** With the page's code: the same post; a reset signs every session out, this browser's too. */
export function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  return postWithSession<ResetPasswordResult>(request, serverAction, () => ({
    failure: { message: 'Failed to reset the password' },
  }));
}
