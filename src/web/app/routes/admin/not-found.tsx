import { data } from 'react-router';
import { paths } from '#web/config/paths';
import { NotFoundContent } from '#web/app/layouts/not-found-content';

export default function AdminNotFoundPage() {
  return <NotFoundContent backTo={paths.admin.dashboard.getHref()} backLabel="Back to Dashboard" />;
}

/** Any path that is no page answers 404 (with this page). */
export function loader() {
  return data(null, { status: 404 });
}
