import { PageTitle } from '#web/components/page-title';
import { AccountPageHeader } from '#web/app/layouts/account-layout';

export function Component() {
  return (
    <>
      <PageTitle title="Messages" />
      <AccountPageHeader title="Messages" />
    </>
  );
}
