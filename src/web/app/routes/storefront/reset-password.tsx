import { useSearchParams } from 'react-router';
import { PageTitle } from '#web/components/page-title';
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
