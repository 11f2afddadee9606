import type { ActionFunctionArgs, ClientActionFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import { PageTitle } from '#web/components/page-title';
import { formText } from '#web/lib/form-data';
import type { ForgotPasswordResult } from '#web/features/auth/api/email-flow-results';
import { forgotPasswordAction } from '#web/features/auth/api/email-flow-actions.server';
import { postWithSession } from '#web/features/auth/api/session-sync';
import { AuthCard } from '#web/features/auth/components/auth-card';
import { ForgotPasswordForm } from '#web/features/auth/components/email-flow-forms';

export default function StorefrontForgotPasswordPage() {
  return (
    <AuthCard>
      <PageTitle title="Reset your password" />
      <ForgotPasswordForm />
    </AuthCard>
  );
}

/** Mails a reset link: a form post, with JavaScript or without. */
export function action(args: ActionFunctionArgs<PageContext>) {
  return forgotPasswordAction(args);
}

export function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  return postWithSession<ForgotPasswordResult>(request, serverAction, (form) => ({
    email: formText(form, 'email'),
    failure: { message: 'Failed to send the reset link' },
  }));
}
