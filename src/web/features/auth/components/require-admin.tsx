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

export type AdminCheckReason = keyof typeof ADMIN_CHECK_MESSAGES;

/** The message for the reason RequireAdmin (or the server) put in /admin/login's URL, if any. */
export function adminCheckMessage(reason: string | null): string | undefined {
  return reason !== null && Object.hasOwn(ADMIN_CHECK_MESSAGES, reason)
    ? ADMIN_CHECK_MESSAGES[reason as AdminCheckReason]
    : undefined;
}

/**
 * Renders children only for an admin: a spinner while checking; everyone else goes to
 * /admin/login?reason=…, which says why ('Not authenticated', 'Not authorized', 'Authentication failed').
 * The server enforces the admin role on every /api/admin route; this only routes the browser.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <PageSpinner label="Checking your session" />;
  const reason: AdminCheckReason | undefined = me.isError
    ? 'failed'
    : !me.data.user
      ? 'unauthenticated'
      : me.data.user.role !== 'admin'
        ? 'forbidden'
        : undefined;
  if (reason) return <Navigate to={paths.admin.login.getHref(reason)} replace />;
  return children;
}
