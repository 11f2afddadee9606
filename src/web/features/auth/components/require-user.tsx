import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '#web/config/paths';
import { useCurrentUser } from '#web/lib/current-user';

/**
 * Renders children only for a signed-in user; others go to /login. A sign-out started in the
 * account area is not this guard's business: the layout swaps it for its skeleton once the server
 * has ended the session, until the redirect to / shows (account-layout.tsx, useSignedOutHere).
 */
export function RequireUser({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return fallback;
  if (!user) return <Navigate to={paths.login.getHref()} replace />;
  return children;
}
