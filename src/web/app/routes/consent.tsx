import { redirect, type ActionFunctionArgs } from 'react-router';
import type { PageContext } from '#common/page-context';
import { parseConsentForm } from '#web/features/consent/consent-form';
import { consentCookie } from '#web/features/consent/hooks/use-stored-flag';

/**
 * POST /consent: the cookie notice's Accept All / Decline and the disclaimer's I Understand (and its
 * close icon) pressed before the app's code has arrived, or without JavaScript. Sets the flag's
 * cookie as the page would (consentCookie: Secure when the shop is served over https) and sends the
 * shopper back to the page the form was on, which the server then renders without that prompt.
 * Once the app is live the page stores the answer itself and never posts here (ConsentForm).
 */
export async function action({ request, context }: ActionFunctionArgs<PageContext>) {
  const submission = parseConsentForm(await request.formData());
  if (!submission) return new Response('Not a consent answer.', { status: 400 });
  const secure = new URL(context.publicUrl).protocol === 'https:';
  const headers = new Headers();
  for (const { key, value } of submission.answers) {
    headers.append('Set-Cookie', consentCookie(key, value, secure));
  }
  return redirect(submission.returnTo, { status: 303, headers });
}

/** /consent opened as a page: nothing to show, the shop is one step away. */
export function loader() {
  return redirect('/');
}
