import { catalogKeys } from '#web/features/catalog/api/catalog-keys';
import { useLiveEvents } from '#web/lib/live-events';
import { AdminLayout } from '#web/app/layouts/admin-layout';

/**
 * The back office. It also follows the storefront's catalogue events, so that products an admin
 * changes are fresh when the same tab opens the shop (the admin features never name the
 * catalogue's query keys themselves).
 */
export function Component() {
  useLiveEvents({ catalog: [catalogKeys.all] });
  return <AdminLayout />;
}
