import {
  Navigate,
  redirect,
  useNavigation,
  type ActionFunctionArgs,
  type ClientActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import type { PageContext } from '#common/page-context';
import { clientData, prefetchQueries } from '#web/app/route-data';
import { PageTitle } from '#web/components/page-title';
import { formText } from '#web/lib/form-data';
import { Alert } from '#web/components/ui/alert';
import { PageSpinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { LOAD_USER_ERROR, meQueryOptions, useCurrentUser } from '#web/lib/current-user';
import { INTENT, unansweredStep, type LoginResult } from '#web/features/auth/api/form-results';
import { loginAction } from '#web/features/auth/api/login-actions.server';
import { postWithSession } from '#web/features/auth/api/session-sync';
import { LoginForm } from '#web/features/auth/components/login-form';

export default function StorefrontLoginPage() {
  const navigation = useNavigation();
  const { user, isLoading, error } = useCurrentUser();
  if (isLoading) return <PageSpinner />;
  // Signed in here by this page's own post, its redirect is already on the way.
  if (user && navigation.state === 'idle') return <Navigate to={paths.profile.root.getHref()} replace />;
  return (
    <div className="flex flex-1 items-center justify-center bg-stone-50 px-4 py-14 sm:py-24">
      <PageTitle title="Sign in" />
      <div className="w-full max-w-[27rem] rounded-[1.75rem] bg-white p-7 shadow-xl ring-1 shadow-stone-900/[0.04] ring-stone-200/70 sm:p-10">
        {error ? (
          <Alert variant="error" className="mb-6">
            {LOAD_USER_ERROR}
          </Alert>
        ) : null}
        <LoginForm />
      </div>
    </div>
  );
}

/** On a full load, the server sends a signed-in visitor on to their account. */
export async function loader({ context }: LoaderFunctionArgs<PageContext>) {
  const { data, queryClient } = await prefetchQueries(
    (client) => client.prefetchQuery(meQueryOptions()),
    context.markIncomplete,
  );
  if (queryClient.getQueryData(meQueryOptions().queryKey)?.user) throw redirect(paths.profile.root.getHref());
  return data;
}

export const clientLoader = clientData;

/** Sign in, create an account and the sign-in's later steps: a form post, with JavaScript or without. */
export function action(args: ActionFunctionArgs<PageContext>) {
  return loginAction(args);
}

/** With the page's code: the same post, then the header and the account area see the new session. */
export function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  return postWithSession<LoginResult>(request, serverAction, (form) => {
    const signUp = form.get(INTENT) === 'sign-up';
    return (
      unansweredStep(form) ?? {
        step: 'credentials',
        mode: signUp ? 'sign-up' : 'sign-in',
        email: formText(form, 'email'),
        failure: { message: signUp ? 'Failed to sign up' : 'Failed to sign in' },
      }
    );
  });
}
