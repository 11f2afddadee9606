import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { useContactEmail } from '#web/lib/shop-info';
import { CART_STORAGE_KEY } from '#web/features/checkout/stores/cart-store';
import { CHECKOUT_STORAGE_KEY } from '#web/features/checkout/stores/checkout-storage';
import { CONSENT_STORAGE_KEYS } from '#web/features/consent/hooks/use-stored-flag';
import { InfoList, InfoPage, InfoSection } from '#web/app/layouts/info-page';

const linkClass =
  'font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600';

const browserStorage = [
  {
    name: CONSENT_STORAGE_KEYS.cookieConsent,
    where: 'Cookie and localStorage',
    what: 'Your answer to the Cookie Notice: true for Accept All, false for Decline.',
  },
  {
    name: CONSENT_STORAGE_KEYS.disclaimerAccepted,
    where: 'Cookie and localStorage',
    what: 'That you acknowledged the Important Disclaimer, so it is not shown again.',
  },
  {
    name: CART_STORAGE_KEY,
    where: 'localStorage',
    what: 'The items in your cart with their size, color and quantity, so the cart survives a reload.',
  },
  {
    name: CHECKOUT_STORAGE_KEY,
    where: 'localStorage',
    what: 'Where you are in checkout and the shipping details you typed, so a reload or the return from the card payment page does not lose them.',
  },
  {
    name: 'Session cookie',
    where: 'Cookie (HTTP-only)',
    what: 'Keeps you signed in. Only set when you sign in, and removed when you sign out.',
  },
] as const;

export default function StorefrontPrivacyPage() {
  const contactEmail = useContactEmail();
  return (
    <InfoPage
      eyebrow="Legal"
      title="Privacy Policy"
      intro="What we keep about you, why, and what stays in your own browser. We collect only what we need to sell and ship your order, and we never sell your data."
    >
      <div className="space-y-12">
        <InfoSection id="browser" title="Cookies and browser storage">
          <p>
            We do not use advertising or tracking cookies. The site keeps a few small values in your browser;
            declining in the Cookie Notice stores that choice and nothing more.
          </p>
          <dl className="divide-y divide-stone-100 overflow-hidden rounded-2xl ring-1 ring-stone-200">
            {browserStorage.map((row) => (
              <div key={row.name} className="px-5 py-4">
                <dt className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <code className="font-mono text-[13px] font-medium text-stone-950">{row.name}</code>
                  <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-600">
                    {row.where}
                  </span>
                </dt>
                <dd className="mt-1.5 text-sm leading-relaxed text-stone-600">{row.what}</dd>
              </div>
            ))}
          </dl>
          <p>You can clear these at any time in your browser settings; the notices will then ask again.</p>
        </InfoSection>

        <InfoSection id="accounts" title="Accounts">
          <p>
            An account is optional. If you create one, we keep your email address and your password as a
            one-way hash (we cannot read it). To have your account deleted, write to us from Messages in your
            account or with the{' '}
            <Link to={paths.contact.getHref()} className={linkClass}>
              contact form
            </Link>
            .
          </p>
        </InfoSection>

        <InfoSection id="orders" title="Orders and shipping">
          <p>
            To fulfil an order we keep what you enter at checkout (name, email, phone, address, city, state,
            ZIP code and country), the items you bought and the tracking number. We share your name and
            address with USPS only to deliver your parcel.
          </p>
        </InfoSection>

        <InfoSection id="payments" title="Payments">
          <InfoList
            items={[
              'Card payments are processed by Stripe on its own checkout page. Your card number goes to Stripe, never to us; we keep only the payment reference and status.',
              'Crypto payments are made on the Solana blockchain. Your wallet address, the amount and the transaction signature are public on the blockchain by nature; we keep the signature to match it to your order.',
              'If you connect a wallet in your account, we use its public address to show your rewards. We never ask for, and never see, your private keys or recovery phrase.',
            ]}
          />
        </InfoSection>

        <InfoSection id="support" title="Support messages">
          <p>
            When you write to us from your account, we keep your messages and our replies with your account so
            we can answer them and follow up. When you write with the contact form, we keep your name, email,
            the order number you give and the conversation, to answer you by email (and on your order&apos;s
            page when the order number and email match your order).
          </p>
        </InfoSection>

        <InfoSection id="more" title="More information">
          <p>
            How we sell and ship is set out in our{' '}
            <Link to={paths.terms.getHref()} className={linkClass}>
              Terms of Service
            </Link>
            . Questions about your data?{' '}
            {contactEmail ? (
              <>
                Write to us at{' '}
                <a href={`mailto:${contactEmail}`} className={linkClass}>
                  {contactEmail}
                </a>
                , or use the{' '}
                <Link to={paths.contact.getHref()} className={linkClass}>
                  contact form
                </Link>
                ; signed-in customers can also write from Messages in their account.
              </>
            ) : (
              <>
                Write to us with the{' '}
                <Link to={paths.contact.getHref()} className={linkClass}>
                  contact form
                </Link>
                , no account needed; signed-in customers can also write from Messages in their account.
              </>
            )}
          </p>
        </InfoSection>
      </div>
    </InfoPage>
  );
}
