import { AccountLayout } from '../../layouts/account-layout';

export { AccountLayout as Component };
