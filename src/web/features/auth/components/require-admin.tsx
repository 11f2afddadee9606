import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { PageSpinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { useMe } from '#web/lib/current-user';

/** The admin check's messages (spec: admin back office, error catalogue), shown on /admin/login. */
export const ADMIN_CHECK_MESSAGES = {
  unauthenticated: 'Not authenticated',
  forbidden: 'Not authorized',
  failed: 'Authentication failed',
} as const;

export interface AdminLoginState {
  reason: keyof typeof ADMIN_CHECK_MESSAGES;
}

/** The message for the navigation state RequireAdmin sends to /admin/login, if any. */
export function adminCheckMessage(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const reason = (state as { reason?: unknown }).reason;
  return typeof reason === 'string' && Object.hasOwn(ADMIN_CHECK_MESSAGES, reason)
    ? ADMIN_CHECK_MESSAGES[reason as AdminLoginState['reason']]
    : undefined;
}

/**
 * Renders children only for an admin: a spinner while checking; everyone else goes to
 * /admin/login, which says why ('Not authenticated', 'Not authorized', 'Authentication failed').
 * The server enforces the admin role on every /api/admin route; this only routes the browser.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <PageSpinner label="Checking your session" />;
  const reason: AdminLoginState['reason'] | undefined = me.isError
    ? 'failed'
    : !me.data.user
      ? 'unauthenticated'
      : me.data.user.role !== 'admin'
        ? 'forbidden'
        : undefined;
  if (reason) {
    const state: AdminLoginState = { reason };
    return <Navigate to={paths.admin.login.getHref()} replace state={state} />;
  }
  return children;
}
