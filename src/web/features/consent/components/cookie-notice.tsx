import { Cookie } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { CONSENT_STORAGE_KEYS, useCookieConsent, writeStoredFlag } from '../hooks/use-stored-flag';

/**
 * Spec §2: a bottom banner 'Cookie Notice' with Decline and Accept All and links to the privacy
 * policy and terms. It shows only while no choice is stored; Accept stores true, Decline false.
 */
export function CookieNotice() {
  const consent = useCookieConsent();
  if (consent !== null) return null;
  const choose = (value: boolean) => writeStoredFlag(CONSENT_STORAGE_KEYS.cookieConsent, value);
  return (
    <section
      aria-labelledby="cookie-notice-title"
      className="animate-fade-in fixed inset-x-3 bottom-3 z-50 mx-auto max-w-3xl rounded-2xl bg-white p-5 shadow-2xl ring-1 shadow-stone-950/15 ring-stone-900/5 sm:inset-x-6 sm:bottom-6 sm:p-6"
    >
      <div className="flex flex-col gap-5 sm:flex-row sm:items-center sm:gap-6">
        <div className="flex gap-4">
          <span
            aria-hidden="true"
            className="hidden size-10 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-600 sm:flex"
          >
            <Cookie className="size-5" strokeWidth={1.75} />
          </span>
          <div>
            <h2 id="cookie-notice-title" className="text-base font-semibold tracking-tight text-stone-950">
              Cookie Notice
            </h2>
            <p className="mt-1 text-sm leading-relaxed text-stone-600">
              We use a session cookie to keep you signed in and your browser&apos;s storage to remember your
              cart and choices. Read our{' '}
              <Link
                to={paths.privacy.getHref()}
                className="font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600"
              >
                Privacy Policy
              </Link>{' '}
              and{' '}
              <Link
                to={paths.terms.getHref()}
                className="font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600"
              >
                Terms of Service
              </Link>
              .
            </p>
          </div>
        </div>
        <div className="grid shrink-0 grid-cols-2 gap-2.5 sm:flex">
          <Button variant="outline" onClick={() => choose(false)}>
            Decline
          </Button>
          <Button onClick={() => choose(true)}>Accept All</Button>
        </div>
      </div>
    </section>
  );
}
