/**
 * The two first-visit prompts: the cookie notice and the disclaimer. The server renders them for a
 * visitor who has not answered them yet (ConsentPrompts, consent-prompts.tsx); their buttons are
 * form buttons (ConsentForm), so a press before the app's code has arrived is not lost.
 */
import { Cookie } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { paths } from '#web/config/paths';
import { useShopName } from '#web/lib/shop-name';
import {
  CONSENT_STORAGE_KEYS,
  useCookieConsent,
  useStoredFlag,
  writeStoredFlag,
} from '../hooks/use-stored-flag';
import { ConsentForm } from './consent-form';

/**
 * Spec §2: a bottom banner 'Cookie Notice' with Decline and Accept All and links to the privacy
 * policy and terms. It shows only while no choice is stored; Accept stores true, Decline false.
 */
export function CookieNotice() {
  const consent = useCookieConsent();
  if (consent !== null) return null;
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
        <ConsentForm className="grid shrink-0 grid-cols-2 gap-2.5 sm:flex">
          <Button type="submit" variant="outline" name={CONSENT_STORAGE_KEYS.cookieConsent} value="false">
            Decline
          </Button>
          <Button type="submit" name={CONSENT_STORAGE_KEYS.cookieConsent} value="true">
            Accept All
          </Button>
        </ConsentForm>
      </div>
    </section>
  );
}

const investmentRisks = [
  'Cryptocurrency is high risk: the value of AELO and SOL can fall sharply or to zero.',
  'Past performance does not predict future results.',
  'Only invest what you can afford to lose.',
  'Do your own research before buying any token.',
] as const;

const productInformation = [
  'All items are pre-loved and carefully authenticated before they ship.',
  'Condition descriptions (New, Like New, Good, Fair) are our honest but subjective assessment.',
  'Colors may vary slightly from the photos depending on your screen.',
  'All sales are final unless an item is significantly misrepresented.',
] as const;

function Points({ title, points }: { title: string; points: readonly string[] }) {
  return (
    <section>
      <h3 className="text-sm font-semibold text-stone-950">{title}</h3>
      <ul className="mt-2.5 space-y-2">
        {points.map((point) => (
          <li key={point} className="flex gap-3 text-sm leading-relaxed text-stone-600">
            <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-rose-500" />
            {point}
          </li>
        ))}
      </ul>
    </section>
  );
}

const DISCLAIMER_FORM_ID = 'disclaimer-form';
/** What 'I Understand' and the close icon post: the acknowledgement. */
const ACKNOWLEDGE = { name: CONSENT_STORAGE_KEYS.disclaimerAccepted, value: 'true' } as const;

/**
 * Spec §2: a full-screen modal 'Important Disclaimer', shown until acknowledged. The 'I Understand'
 * button, the close icon and Escape (the keyboard's close icon) all acknowledge it, and the
 * acknowledgement (true) is remembered. The backdrop does not close it: it must be read. Both
 * buttons submit the consent form, so they work from the first paint (see ConsentForm).
 */
export function DisclaimerModal() {
  const accepted = useStoredFlag(CONSENT_STORAGE_KEYS.disclaimerAccepted);
  const acknowledge = () => writeStoredFlag(CONSENT_STORAGE_KEYS.disclaimerAccepted, true);
  const shopName = useShopName();
  return (
    <Dialog
      open={accepted === null || accepted === false}
      onClose={acknowledge}
      closeOnBackdrop={false}
      closeSubmits={{ form: DISCLAIMER_FORM_ID, ...ACKNOWLEDGE }}
      id="disclaimer"
      title="Important Disclaimer"
      size="lg"
    >
      <ConsentForm id={DISCLAIMER_FORM_ID} className="space-y-6">
        <p className="text-[15px] leading-relaxed text-stone-700">
          Welcome to {shopName}, the shop for pre-loved, authenticated activewear tied to the AELO token.
          Please read this before you shop or buy the token.
        </p>
        <div className="space-y-5 rounded-xl bg-stone-50 p-5 ring-1 ring-stone-200/70">
          <Points title="Investment risks" points={investmentRisks} />
          <Points title="Product information" points={productInformation} />
        </div>
        <Button type="submit" size="lg" fullWidth {...ACKNOWLEDGE}>
          I Understand
        </Button>
      </ConsentForm>
    </Dialog>
  );
}
