import { redirect } from 'react-router';
import { AccountLayout } from '#web/app/layouts/account-layout';
import { clientData, prefetchQueries, revalidateAfterSubmit } from '#web/app/route-data';
import { paths } from '#web/config/paths';
import { emailStatusQueryOptions } from '#web/features/auth/api/email-flows';
import { meQueryOptions } from '#web/lib/current-user';
import { shopInfoQueryOptions } from '#web/lib/shop-info';
import type { LoaderFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';

export default AccountLayout;

/**
 * The account area, rendered on the server for its signed-in customer with the email status (the
 * banner above every page) and the shop's token (the orders' discounts, the wallet's chain). A
 * visitor the session API says is nobody goes to the sign-in page; when it could not tell (slow or
 * failed), the page renders and the browser's guard decides.
 */
export async function loader({ context }: LoaderFunctionArgs<PageContext>) {
  const { data, queryClient } = await prefetchQueries(
    (client) =>
      Promise.all([
        client.prefetchQuery(meQueryOptions()),
        client.prefetchQuery(emailStatusQueryOptions()),
        client.prefetchQuery(shopInfoQueryOptions()),
      ]),
    context.markIncomplete,
  );
  const me = queryClient.getQueryData(meQueryOptions().queryKey);
  if (me && !me.user) throw redirect(paths.login.getHref());
  return data;
}

export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;
