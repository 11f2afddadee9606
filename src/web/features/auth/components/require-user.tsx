import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../api/get-me';

/** Renders children only for a signed-in user; others go to /login. */
export function RequireUser({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return fallback;
  if (!user) return <Navigate to={paths.login.getHref()} replace />;
  return children;
}
