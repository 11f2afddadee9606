import { useSearchParams } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { AuthCard } from '#web/features/auth/components/auth-card';
import { VerifyEmailForm } from '#web/features/auth/components/email-flow-forms';

export default function StorefrontVerifyEmailPage() {
  const [params] = useSearchParams();
  return (
    <AuthCard>
      <PageTitle title="Confirm your email" />
      <VerifyEmailForm token={params.get('token') ?? ''} />
    </AuthCard>
  );
}
