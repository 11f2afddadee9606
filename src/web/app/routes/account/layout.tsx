import { AccountLayout } from '#web/app/layouts/account-layout';
import type { PageHandle } from '#web/app/page-data';
import { emailStatusQueryOptions } from '#web/features/auth/api/email-flows';

export { AccountLayout as Component };

/** Every account page waits for the email status (the banner above the page): in the HTML. */
export const handle = {
  prefetch: (queryClient) => queryClient.prefetchQuery(emailStatusQueryOptions()),
} satisfies PageHandle;
