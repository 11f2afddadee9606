import { AdminLayout } from '../../layouts/admin-layout';

export { AdminLayout as Component };
