import { cn } from '#web/lib/cn';
import { ChevronDown } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { useContactEmail } from '#web/lib/shop-info';
import { InfoPage } from '#web/app/layouts/info-page';
import { UNTIL_LIVE_CLASSES, useUntilLive } from '#web/lib/until-live';

interface Question {
  q: string;
  a: ReactNode;
}

const linkClass =
  'font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600';

const sections: Array<{ title: string; questions: Question[] }> = [
  {
    title: 'Orders & shipping',
    questions: [
      {
        q: 'Where do you ship?',
        a: 'Anywhere in the continental United States, by USPS. We do not ship internationally at this time.',
      },
      {
        q: 'How much does shipping cost?',
        a: 'Shipping is free on orders of $50.00 or more. Below that, it is a flat $4.99.',
      },
      {
        q: 'When will my order arrive?',
        a: 'We process orders within 48 hours, and USPS delivers in 3-5 business days after that. You will receive tracking information within 48 hours once your order ships.',
      },
      {
        q: 'Do I need an account to order?',
        a: 'No, you can check out as a guest. With an account you can follow your orders and their tracking, and send us support messages. Without one, write to us with the contact form.',
      },
    ],
  },
  {
    title: 'Condition & authenticity',
    questions: [
      {
        q: 'Are the items authentic?',
        a: 'Yes. Every item is authenticated before it is listed: brand labels, care tags, stitching and fabric content are checked against retail stock. If we cannot verify an item, we do not sell it.',
      },
      {
        q: 'What do the condition ratings mean?',
        a: (
          <ul className="space-y-1.5">
            <li>
              <strong className="font-semibold text-stone-900">New</strong>: never worn, often with the
              original tags.
            </li>
            <li>
              <strong className="font-semibold text-stone-900">Like New</strong>: worn a few times, with no
              visible wear.
            </li>
            <li>
              <strong className="font-semibold text-stone-900">Good</strong>: light signs of wear, described
              in the listing.
            </li>
            <li>
              <strong className="font-semibold text-stone-900">Fair</strong>: visible wear such as pilling or
              fading, described in the listing and priced to match.
            </li>
          </ul>
        ),
      },
      {
        q: 'Will the color look exactly like the photos?',
        a: 'We photograph every item in even light, but screens differ, so colors may vary slightly from what you see.',
      },
      {
        q: 'How do I find my size?',
        a: 'Open a product to see its sizes and, for most items, a size guide with waist, hip and bust measurements in inches.',
      },
    ],
  },
  {
    title: 'Returns & refunds',
    questions: [
      {
        q: 'Can I return an item?',
        a: 'All sales are final unless an item is significantly misrepresented, for example the wrong size or wear the listing does not mention. In that case, request a return within 7 days of delivery, with the item unworn and its tags attached.',
      },
      {
        q: 'Who pays for return shipping?',
        a: 'The customer pays return shipping.',
      },
      {
        q: 'When will I get my refund?',
        a: 'Within 5 business days of the return reaching us, to your original payment method.',
      },
    ],
  },
  {
    title: 'Payments',
    questions: [
      {
        q: 'How can I pay?',
        a: 'By card, or with crypto: SOL or the AELO token. Paying with AELO gives you 10% off your order.',
      },
      {
        q: 'Is paying by card secure?',
        a: 'Card payments are handled by Stripe on its own secure checkout page. Your card number never reaches our servers.',
      },
      {
        q: 'What if my crypto payment does not go through?',
        a: "A crypto payment request stays open for 5 minutes, and your items are reserved for you during that time. If the payment has not arrived by then, you will see 'Payment timeout. Please try again.' and can start a new payment.",
      },
    ],
  },
  {
    title: 'AELO token & rewards',
    questions: [
      {
        q: 'What is AELO?',
        a: 'AELO is the shop’s community token on the Solana blockchain. 10% of every sale goes to AELO buybacks and the liquidity pool, and 10% to random holder rewards.',
      },
      {
        q: 'How do I buy AELO?',
        a: (
          <>
            Set up a Solana wallet, add some SOL and swap it for AELO on a decentralized exchange. Our{' '}
            <Link to={paths.howToBuy.getHref()} className={linkClass}>
              How to Buy
            </Link>{' '}
            page walks you through it.
          </>
        ),
      },
      {
        q: 'How do holder rewards work?',
        a: 'Rewards are claimed automatically and sent as SOL to your wallet. Every day the top 50 holders share 90% of the liquidity-pool rewards in proportion to their holdings, with at least $1.00 per airdrop. Random airdrops come at random intervals of up to 24 hours, averaging 12 hours. Smart-contract and program-derived addresses are excluded from the top 50.',
      },
      {
        q: 'When is the first random airdrop?',
        a: 'When AELO reaches a $2,000,000 market cap. The progress bar on the home page shows how close we are.',
      },
      {
        q: 'Is AELO an investment?',
        a: 'Cryptocurrency is high risk and past performance does not predict future results. Only invest what you can afford to lose, and do your own research.',
      },
    ],
  },
];

function FaqSection({
  title,
  questions,
  isOpen,
  onToggle,
}: {
  title: string;
  questions: Question[];
  isOpen: boolean;
  onToggle: () => void;
}) {
  const id = useId();
  const untilLive = useUntilLive();
  return (
    <div className="border-b border-stone-200">
      <h2>
        <button
          type="button"
          id={`${id}-button`}
          aria-expanded={isOpen}
          aria-controls={`${id}-panel`}
          onClick={onToggle}
          {...untilLive}
          className={cn(
            'flex w-full items-center justify-between gap-4 py-6 text-left text-lg font-semibold tracking-[-0.01em] text-stone-950 sm:text-xl',
            UNTIL_LIVE_CLASSES,
          )}
        >
          {title}
          <span
            className={cn(
              'flex size-8 shrink-0 items-center justify-center rounded-full transition-colors',
              isOpen ? 'bg-rose-600 text-white' : 'bg-stone-100 text-stone-600',
            )}
          >
            <ChevronDown
              className={cn('size-4 transition-transform duration-200', isOpen && 'rotate-180')}
              aria-hidden="true"
            />
          </span>
        </button>
      </h2>
      <div id={`${id}-panel`} role="region" aria-labelledby={`${id}-button`} hidden={!isOpen}>
        <dl className="space-y-6 pb-8">
          {questions.map(({ q, a }) => (
            <div key={q}>
              <dt className="text-[15px] font-semibold text-stone-900">{q}</dt>
              <dd className="mt-1.5 text-[15px] leading-relaxed text-pretty text-stone-600">{a}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}

export default function StorefrontFaqPage() {
  const [open, setOpen] = useState<number | null>(0);
  const contactEmail = useContactEmail();
  return (
    <InfoPage
      eyebrow="Help"
      title="Frequently Asked Questions"
      intro="Shipping, condition ratings, returns, payments and the AELO token, answered."
    >
      <div className="border-t border-stone-200">
        {sections.map((section, i) => (
          <FaqSection
            key={section.title}
            title={section.title}
            questions={section.questions}
            isOpen={open === i}
            onToggle={() => setOpen(open === i ? null : i)}
          />
        ))}
      </div>
      <p className="mt-10 text-[15px] text-stone-600">
        Still have a question? Write to us with the{' '}
        <Link to={paths.contact.getHref()} className={linkClass}>
          contact form
        </Link>
        , no account needed
        {contactEmail ? (
          <>
            , or at{' '}
            <a href={`mailto:${contactEmail}`} className={linkClass}>
              {contactEmail}
            </a>
          </>
        ) : null}
        . Signed-in customers can also follow their tickets in{' '}
        <Link to={paths.profile.messages.getHref()} className={linkClass}>
          Messages
        </Link>{' '}
        in their account.
      </p>
    </InfoPage>
  );
}
