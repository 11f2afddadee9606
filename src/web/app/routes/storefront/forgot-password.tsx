import { PageTitle } from '#web/components/page-title';
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
