import { paths } from '#web/config/paths';
import { NotFoundContent } from '#web/app/layouts/not-found-content';

export function Component() {
  return <NotFoundContent backTo={paths.admin.dashboard.getHref()} backLabel="Back to Dashboard" />;
}
