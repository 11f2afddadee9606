import { AccountLayout } from '#web/app/layouts/account-layout';

export { AccountLayout as Component };
