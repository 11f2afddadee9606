import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PageTitle } from '#web/components/page-title';
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
