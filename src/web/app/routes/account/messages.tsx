import { PageTitle } from '../../../components/page-title';
import { AccountPageHeader } from '../../layouts/account-layout';

export function Component() {
  return (
    <>
      <PageTitle title="Messages" />
      <AccountPageHeader title="Messages" />
    </>
  );
}
