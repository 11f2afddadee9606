import { Navigate, useNavigate } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { Alert } from '#web/components/ui/alert';
import { PageSpinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { LOAD_USER_ERROR, useCurrentUser } from '#web/lib/current-user';
import { LoginForm } from '#web/features/auth/components/login-form';

export default function StorefrontLoginPage() {
  const navigate = useNavigate();
  const { user, isLoading, error } = useCurrentUser();
  if (isLoading) return <PageSpinner />;
  if (user) return <Navigate to={paths.profile.root.getHref()} replace />;
  return (
    <div className="flex flex-1 items-center justify-center bg-stone-50 px-4 py-14 sm:py-24">
      <PageTitle title="Sign in" />
      <div className="w-full max-w-[27rem] rounded-[1.75rem] bg-white p-7 shadow-xl ring-1 shadow-stone-900/[0.04] ring-stone-200/70 sm:p-10">
        {error ? (
          <Alert variant="error" className="mb-6">
            {LOAD_USER_ERROR}
          </Alert>
        ) : null}
        <LoginForm onSuccess={() => void navigate(paths.profile.root.getHref())} />
      </div>
    </div>
  );
}
