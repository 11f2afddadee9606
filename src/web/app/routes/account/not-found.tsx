import { paths } from '../../../config/paths';
import { NotFoundContent } from '../../layouts/not-found-content';

export function Component() {
  return <NotFoundContent backTo={paths.profile.orders.getHref()} backLabel="Back to your account" />;
}
