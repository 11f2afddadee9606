import { paths } from '../../../config/paths';
import { NotFoundContent } from '../../layouts/not-found-content';

export function Component() {
  return <NotFoundContent backTo={paths.home.getHref()} backLabel="Back to Home" />;
}
