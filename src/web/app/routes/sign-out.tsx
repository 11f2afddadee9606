import { LogOut } from 'lucide-react';
import {
  data,
  Form,
  Link,
  redirect,
  redirectDocument,
  useActionData,
  useNavigation,
  type ActionFunctionArgs,
  type ClientActionFunctionArgs,
} from 'react-router';
import { z } from 'zod';
import type { PageContext } from '#common/page-context';
import { PageTitle } from '#web/components/page-title';
import { Alert } from '#web/components/ui/alert';
import { Button, buttonClasses } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { AuthCard } from '#web/features/auth/components/auth-card';
import { authKeys } from '#web/lib/auth-keys';
import { formText } from '#web/lib/form-data';
import { queryClient } from '#web/lib/query-client';

/**
 * POST /sign-out: Sign Out in the account area and the back office is a form posting here, so the
 * server ends the session before any page shows the visitor signed out, with or without the code
 * (a press before it arrives is a plain form post). The next page is a redirect, rendered by the
 * server already without the session: / (the spec: Sign Out returns to /), or the admin sign-in
 * page for the back office, as a full page load (nothing of an admin session stays in memory).
 */

/** Where a sign-out may lead: only these (never a caller's URL), / unless the form names another. */
const SignOutFormSchema = z.object({
  to: z.enum([paths.home.getHref(), paths.admin.login.getHref()]).catch(paths.home.getHref()),
});

/** The spec's message for a failed sign-out (§8 Auth). */
const SIGN_OUT_FAILED = 'Failed to sign out';

export interface SignOutActionData {
  error: { message: string };
}

export async function action({ request, context }: ActionFunctionArgs<PageContext>) {
  const form = await request.formData();
  const { to } = SignOutFormSchema.parse({ to: formText(form, 'to') });
  const res = await context.fetchApi('/api/auth/sign-out', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  // The expired session cookie goes on to the browser with whatever comes next.
  const headers = new Headers();
  for (const cookie of res.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
  if (!res.ok) {
    return data<SignOutActionData>({ error: { message: SIGN_OUT_FAILED } }, { status: res.status, headers });
  }
  return to === paths.admin.login.getHref() ? redirectDocument(to, { headers }) : redirect(to, { headers });
}

/**
 * In the browser, once the server has ended the session and before the next page shows: the
 * signed-in user is forgotten (the account area swaps its pages for its skeleton rather than
 * sending to /login, account-layout.tsx) and so is everything cached for them. A sign-out that
 * reloads the document (the back office's) needs none of it.
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<typeof action>();
  } catch (thrown) {
    // The server's redirect comes as a thrown Response; anything else is a request that failed on
    // the way (offline): the page stays, with the spec's message.
    if (!(thrown instanceof Response))
      return { error: { message: SIGN_OUT_FAILED } } satisfies SignOutActionData;
    if (!thrown.headers.has('X-Remix-Reload-Document')) {
      queryClient.setQueryData(authKeys.me(), { user: null });
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.all[0] });
    }
    throw thrown;
  }
}

/**
 * What a sign-out that failed without the code shows (with the code the menu shows the message in
 * place), and /sign-out opened as a page: the same form again.
 */
export default function SignOutPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <AuthCard>
      <PageTitle title="Sign out" />
      <h1 className="text-2xl font-semibold tracking-tight text-stone-950">Sign out</h1>
      {result?.error ? (
        <Alert variant="error" className="mt-6">
          {result.error.message}
        </Alert>
      ) : null}
      <Form method="post" className="mt-6 space-y-3">
        <Button type="submit" fullWidth isLoading={navigation.state === 'submitting'}>
          <LogOut className="size-4" strokeWidth={1.75} aria-hidden="true" />
          Sign Out
        </Button>
        <Link to={paths.home.getHref()} className={buttonClasses({ variant: 'outline', fullWidth: true })}>
          Back to Store
        </Link>
      </Form>
    </AuthCard>
  );
}
