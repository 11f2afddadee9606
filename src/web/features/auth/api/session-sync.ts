import { authKeys } from '#web/lib/auth-keys';
import { getMe } from '#web/lib/current-user';
import { queryClient } from '#web/lib/query-client';

/**
 * The sign-in pages' forms post to their route's server action, with the page's code or without.
 * With it, this runs as the route's clientAction around that same post (`serverAction`): when the
 * post signed someone in (the action redirects) or otherwise changed this browser's session
 * (`sessionChanged` in its answer), the current user is loaded again and what was cached for the
 * previous one is dropped before the next page renders, so the header and the guarded areas show
 * the new session at once, without a reload. A post that got no usable answer (a dropped
 * connection, a proxy's error page) becomes `unanswered(form)`, the page's own failure, instead of
 * the error page.
 */
export async function postWithSession<T>(
  request: Request,
  serverAction: () => Promise<T>,
  unanswered: (form: FormData) => T,
): Promise<T> {
  const copy = request.clone();
  let result: T;
  try {
    result = await serverAction();
  } catch (thrown) {
    if (isRedirect(thrown)) {
      await reloadUser();
      throw thrown;
    }
    return unanswered(await copy.formData());
  }
  if (changedSession(result)) await reloadUser();
  return result;
}

function isRedirect(thrown: unknown): thrown is Response {
  return thrown instanceof Response && thrown.status >= 300 && thrown.status < 400;
}

function changedSession(result: unknown): boolean {
  return (
    typeof result === 'object' &&
    result !== null &&
    'sessionChanged' in result &&
    result.sessionChanged === true
  );
}

/** The user of the session this browser now holds; nothing cached for the one before survives. */
async function reloadUser(): Promise<void> {
  const me = await getMe().catch(() => undefined);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
  if (me) queryClient.setQueryData(authKeys.me(), me);
  // The account's other answers (its email's status, two-factor) are asked again where shown.
  await queryClient.invalidateQueries({
    predicate: (q) => q.queryKey[0] === authKeys.all[0] && q.queryKey[1] !== authKeys.me()[1],
    refetchType: 'none',
  });
  if (!me) await queryClient.invalidateQueries({ queryKey: authKeys.me() });
}
