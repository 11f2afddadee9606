import { catalogKeys } from '../../../features/catalog/api/catalog-keys';
import { useLiveEvents } from '../../../lib/live-events';
import { AdminLayout } from '../../layouts/admin-layout';

/**
 * The back office. It also follows the storefront's catalogue events, so that products an admin
 * changes are fresh when the same tab opens the shop (the admin features never name the
 * catalogue's query keys themselves).
 */
export function Component() {
  useLiveEvents({ catalog: [catalogKeys.all] });
  return <AdminLayout />;
}
