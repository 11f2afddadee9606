import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { InfoPage } from '#web/app/layouts/info-page';

const linkClass =
  'font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600';

export const TERMS_LAST_UPDATED = 'March 28, 2024';

const sections: Array<{ title: string; body: ReactNode }> = [
  {
    title: 'Acceptance of these terms',
    body: 'By using the Aelo website, placing an order or holding an account with us, you agree to these Terms of Service. If you do not agree, please do not use the site.',
  },
  {
    title: 'Accounts',
    body: 'You can order as a guest or with an account. If you create an account, keep your password to yourself: you are responsible for what is done with your account. Orders are linked to an account by the shipping email address once that email is verified.',
  },
  {
    title: 'Products and condition',
    body: 'All items are pre-loved and authenticated before they are listed. Each carries a condition rating (New, Like New, Good or Fair) and a description of any wear. Condition descriptions are our honest but subjective assessment, and colors may vary slightly from the photos.',
  },
  {
    title: 'Prices and availability',
    body: 'Prices are in US dollars. Most items are single pieces or limited stock; an item is only yours once your payment is confirmed. If two people pay for the last piece at the same moment, the first confirmed payment wins and the other is told at once.',
  },
  {
    title: 'Payment',
    body: 'You can pay by card through Stripe, or with SOL or the AELO token on the Solana blockchain. Paying with AELO gives 10% off the order total. Crypto payment requests are open for 5 minutes, during which your items are reserved. Amounts are always calculated by our servers.',
  },
  {
    title: 'Shipping',
    body: (
      <>
        We ship to the continental United States by USPS. Orders are processed within 48 hours and arrive in
        3-5 business days; tracking follows within 48 hours. Shipping is free on orders of $50.00 or more,
        otherwise $4.99. See{' '}
        <Link to={paths.shipping.getHref()} className={linkClass}>
          Shipping
        </Link>{' '}
        for details.
      </>
    ),
  },
  {
    title: 'Returns and refunds',
    body: 'All sales are final unless an item is significantly misrepresented. In that case you may request a return within 7 days of delivery; the item must be unworn with its tags attached, and the customer pays return shipping. Refunds are issued within 5 business days of the return reaching us.',
  },
  {
    title: 'The AELO token and rewards',
    body: 'AELO is a community token on Solana. Holder rewards (daily airdrops to the top 50 holders and random airdrops) are paid in SOL at our discretion, according to the rules published on the site, and may change. Smart-contract and program-derived addresses are excluded from the top 50. Nothing on this site is financial advice.',
  },
  {
    title: 'Risks of cryptocurrency',
    body: 'Cryptocurrency is high risk. The value of AELO and SOL can fall sharply or to zero, and past performance does not predict future results. Only invest what you can afford to lose and do your own research. Blockchain transactions cannot be reversed: check addresses and amounts before you send.',
  },
  {
    title: 'Acceptable use',
    body: 'Do not misuse the site: no attempts to break into accounts or systems, interfere with other shoppers, scrape it in bulk, or place orders with payment methods you are not authorised to use.',
  },
  {
    title: 'Limitation of liability',
    body: 'To the extent the law allows, Aelo is not liable for indirect or consequential losses, for changes in the value of any cryptocurrency, or for delays caused by carriers or blockchain networks. Our liability for any order is limited to the amount you paid for it.',
  },
  {
    title: 'Changes and contact',
    body: (
      <>
        We may update these terms; the date at the top shows the latest version, and changes apply to orders
        placed after it. Questions? Write to us with the{' '}
        <Link to={paths.contact.getHref()} className={linkClass}>
          contact form
        </Link>
        ; signed-in customers can also write from Messages in their account. Our{' '}
        <Link to={paths.privacy.getHref()} className={linkClass}>
          Privacy Policy
        </Link>{' '}
        explains how we handle your data.
      </>
    ),
  },
];

export default function StorefrontTermsPage() {
  return (
    <InfoPage eyebrow="Legal" title="Terms of Service" meta={`Last updated ${TERMS_LAST_UPDATED}`}>
      <ol className="space-y-10">
        {sections.map((section, i) => (
          <li key={section.title}>
            <section aria-labelledby={`terms-${i + 1}`}>
              <h2
                id={`terms-${i + 1}`}
                className="flex gap-3 text-lg font-semibold tracking-[-0.01em] text-stone-950 sm:text-xl"
              >
                <span className="w-7 shrink-0 text-rose-600 tabular-nums">{i + 1}.</span>
                {section.title}
              </h2>
              <div className="mt-2 text-[15px] leading-relaxed text-pretty text-stone-600 sm:pl-10">
                {section.body}
              </div>
            </section>
          </li>
        ))}
      </ol>
    </InfoPage>
  );
}
