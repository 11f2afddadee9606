import { useIsMutating } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '#web/config/paths';
import { authKeys } from '#web/lib/auth-keys';
import { useCurrentUser } from '#web/lib/current-user';

/**
 * Renders children only for a signed-in user; others go to /login. Once a sign-out starts under
 * this guard, the page that started it decides where to go (the spec: Sign Out returns to /): the
 * guard shows its fallback until it is unmounted instead of racing that navigation to /login (the
 * user is cleared once the server has ended the session, before that navigation starts).
 */
export function RequireUser({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const signingOut = useIsMutating({ mutationKey: authKeys.signOut() }) > 0;
  const [signedOutHere, setSignedOutHere] = useState(false);
  if (signingOut && !signedOutHere) setSignedOutHere(true);
  if (isLoading) return fallback;
  if (!user) return signingOut || signedOutHere ? fallback : <Navigate to={paths.login.getHref()} replace />;
  return children;
}
