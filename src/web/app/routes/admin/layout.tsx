import { catalogKeys } from '#web/features/catalog/api/catalog-keys';
import { useLiveEvents } from '#web/lib/live-events';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import { AdminLayout } from '#web/app/layouts/admin-layout';
import { prefetchQueries } from '#web/app/route-data';
import { PageSpinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import type { AdminCheckReason } from '#web/features/auth/components/require-admin';
import { meQueryOptions } from '#web/lib/current-user';

/**
 * The back office. It also follows the storefront's catalogue events, so that products an admin
 * changes are fresh when the same tab opens the shop (the admin features never name the
 * catalogue's query keys themselves).
 */
export default function AdminLayoutPage() {
  useLiveEvents({ catalog: [catalogKeys.all] });
  return <AdminLayout />;
}

/**
 * On a full load, a visitor the session API says is nobody goes straight to the sign-in page
 * (when it could not tell, the browser's guard decides). The back office itself renders in the
 * browser (clientLoader with HydrateFallback): its screens are live data behind a sign-in, with
 * nothing for a crawler or a first paint (docs/performance.md).
 */
export async function loader({ context }: LoaderFunctionArgs<PageContext>) {
  const { queryClient } = await prefetchQueries(
    (client) => client.prefetchQuery(meQueryOptions()),
    context.markIncomplete,
  );
  const me = queryClient.getQueryData(meQueryOptions().queryKey);
  if (me && !me.user) throw redirect(paths.admin.login.getHref('unauthenticated' satisfies AdminCheckReason));
  return null;
}

export async function clientLoader() {
  return Promise.resolve(null);
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <PageSpinner label="Loading the back office" />;
}
