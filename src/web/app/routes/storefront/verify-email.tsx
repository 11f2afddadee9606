import {
  useSearchParams,
  type ActionFunctionArgs,
  type ClientActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import type { PageContext } from '#common/page-context';
import { clientData, prefetchQueries, type QueriesData } from '#web/app/route-data';
import { PageTitle } from '#web/components/page-title';
import { errorMessage } from '#web/lib/api-client';
import type { VerifyEmailResult } from '#web/features/auth/api/email-flow-results';
import { verifyEmailAction } from '#web/features/auth/api/email-flow-actions.server';
import { verificationAccountQueryOptions } from '#web/features/auth/api/email-flows';
import { unansweredStep } from '#web/features/auth/api/form-results';
import { postWithSession } from '#web/features/auth/api/session-sync';
import { AuthCard } from '#web/features/auth/components/auth-card';
import { VerifyEmailForm } from '#web/features/auth/components/email-flow-forms';

type VerifyEmailData = QueriesData & { linkError?: string };

export default function StorefrontVerifyEmailPage({
  loaderData,
}: {
  loaderData: VerifyEmailData | undefined;
}) {
  const [params] = useSearchParams();
  return (
    <AuthCard>
      <PageTitle title="Confirm your email" />
      <VerifyEmailForm token={params.get('token') ?? ''} linkError={loaderData?.linkError} />
    </AuthCard>
  );
}

/**
 * The account the link names, in the page's first HTML (its password step works without
 * JavaScript); a link the server cannot open says why there too.
 */
export async function loader({
  request,
  context,
}: LoaderFunctionArgs<PageContext>): Promise<VerifyEmailData> {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  if (!token) return {};
  const options = verificationAccountQueryOptions(token);
  const { data, queryClient } = await prefetchQueries(
    (client) => client.prefetchQuery(options),
    context.markIncomplete,
  );
  const state = queryClient.getQueryState(options.queryKey);
  if (state?.status !== 'error') return data;
  return { ...data, linkError: errorMessage(state.error, 'Failed to confirm the email address') };
}

export const clientLoader = clientData;

/** The password step and the sign-in's two-factor step after it: a form post, with JavaScript or without. */
export function action(args: ActionFunctionArgs<PageContext>) {
  return verifyEmailAction(args);
}

/** With the page's code: the same post, then the account area sees the new session. */
export function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  return postWithSession<VerifyEmailResult>(
    request,
    serverAction,
    (form) =>
      unansweredStep(form) ?? {
        step: 'password',
        mode: form.get('mode') === 'current' ? 'current' : 'set',
        failure: { message: 'Failed to confirm the email address' },
      },
  );
}
