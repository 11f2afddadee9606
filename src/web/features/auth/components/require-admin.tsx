import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { PageSpinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { useMe } from '../api/get-me';

export interface AdminLoginState {
  reason: 'forbidden';
}

/** Renders children only for an admin: a spinner while checking, /admin/login for everyone else. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <PageSpinner label="Checking your session" />;
  if (me.isError) {
    return (
      <div className="mx-auto max-w-md p-8">
        <Alert variant="error" title="Could not check your session">
          {errorMessage(me.error)}
        </Alert>
      </div>
    );
  }
  const user = me.data.user;
  if (!user) return <Navigate to={paths.admin.login.getHref()} replace />;
  if (user.role !== 'admin') {
    const state: AdminLoginState = { reason: 'forbidden' };
    return <Navigate to={paths.admin.login.getHref()} replace state={state} />;
  }
  return children;
}
