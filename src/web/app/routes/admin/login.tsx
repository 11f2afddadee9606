import { ArrowLeft } from 'lucide-react';
import {
  Link,
  Navigate,
  redirect,
  useNavigation,
  useSearchParams,
  type ActionFunctionArgs,
  type ClientActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import type { PageContext } from '#common/page-context';
import { clientData, prefetchQueries } from '#web/app/route-data';
import { BrandMark } from '#web/components/brand';
import { PageTitle } from '#web/components/page-title';
import { PageSpinner } from '#web/components/ui/spinner';
import { paths } from '#web/config/paths';
import { meQueryOptions, useCurrentUser } from '#web/lib/current-user';
import { formText } from '#web/lib/form-data';
import { useShopName } from '#web/lib/shop-name';
import {
  ADMIN_LOGIN_FALLBACK,
  unansweredStep,
  type AdminLoginResult,
} from '#web/features/auth/api/form-results';
import { adminLoginAction } from '#web/features/auth/api/login-actions.server';
import { postWithSession } from '#web/features/auth/api/session-sync';
import { AdminLoginForm } from '#web/features/auth/components/admin-login-form';
import { adminCheckMessage } from '#web/features/auth/components/require-admin';

export default function AdminLoginPage() {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const { user, isLoading } = useCurrentUser();
  const shopName = useShopName();
  if (isLoading) return <PageSpinner label="Checking your session" />;
  const signedInTo = destinationFor(user);
  // Signed in here by this page's own post, its redirect is already on the way.
  if (signedInTo && navigation.state === 'idle') return <Navigate to={signedInTo} replace />;

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-stone-100/70 px-4 py-16">
      <PageTitle title="Admin Login" />
      <div className="w-full max-w-[25rem]">
        <div className="rounded-[1.5rem] bg-white p-7 shadow-xl ring-1 shadow-stone-900/[0.05] ring-stone-200/80 sm:p-9">
          <div className="mb-8 flex flex-col items-start gap-5">
            <BrandMark className="size-10" />
            <div>
              <h1 className="text-2xl font-semibold tracking-tight text-stone-950">Admin Login</h1>
              <p className="mt-1.5 text-sm text-stone-500">
                The {shopName} back office. Staff accounts only.
              </p>
            </div>
          </div>
          <AdminLoginForm initialError={adminCheckMessage(params.get('reason'))} />
        </div>
        <Link
          to={paths.home.getHref()}
          className="mx-auto mt-8 flex w-fit items-center gap-2 rounded text-sm font-medium text-stone-500 transition-colors hover:text-stone-900"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to store
        </Link>
      </div>
    </main>
  );
}

/** A signed-in admin goes straight to the back office: in the browser and, on a full load, from the server. */
function destinationFor(user: { role?: string } | null | undefined): string | undefined {
  return user?.role === 'admin' ? paths.admin.products.getHref() : undefined;
}

/** On a full load, the server sends a signed-in admin on. */
export async function loader({ context }: LoaderFunctionArgs<PageContext>) {
  const { data, queryClient } = await prefetchQueries(
    (client) => client.prefetchQuery(meQueryOptions()),
    context.markIncomplete,
  );
  const signedInTo = destinationFor(queryClient.getQueryData(meQueryOptions().queryKey)?.user);
  if (signedInTo) throw redirect(signedInTo);
  return data;
}

export const clientLoader = clientData;

/** The back office's sign-in and its later steps: a form post, with JavaScript or without. */
export function action(args: ActionFunctionArgs<PageContext>) {
  return adminLoginAction(args);
}

/** With the page's code: the same post, then the back office sees the new session. */
export function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  return postWithSession<AdminLoginResult>(
    request,
    serverAction,
    (form) =>
      unansweredStep(form) ?? {
        step: 'credentials',
        email: formText(form, 'email'),
        failure: { message: ADMIN_LOGIN_FALLBACK },
      },
  );
}
