import { Navigate, redirect } from 'react-router';
import { paths } from '#web/config/paths';

/** /profile is the orders page (on a full load the server answers with its address). */
export function loader() {
  return redirect(paths.profile.orders.getHref());
}

export default function AccountIndexPage() {
  return <Navigate to={paths.profile.orders.getHref()} replace />;
}
