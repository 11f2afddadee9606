import { ArrowRight, Gem, Leaf, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '#web/components/ui/button';
import { paths } from '#web/config/paths';
import { useShopName } from '#web/lib/shop-name';
import { InfoPage, InfoSection } from '#web/app/layouts/info-page';

const values = [
  {
    icon: ShieldCheck,
    title: 'Quality',
    text: 'Every piece is inspected by hand: brand labels, care tags, stitching and fabric content checked against retail stock, then graded New, Like New, Good or Fair.',
  },
  {
    icon: Leaf,
    title: 'Sustainable growth',
    text: 'Activewear is built to last longer than most people keep it. Giving it a second owner keeps it in use and out of landfill, and 80% of every sale funds the shop’s operations and growth.',
  },
  {
    icon: Gem,
    title: 'Premium brand',
    text: 'We list performance pieces we would train in ourselves, photograph them honestly and describe every flaw, so buying pre-loved feels like buying new.',
  },
] as const;

const steps = [
  {
    title: 'Source',
    text: 'We buy pre-loved activewear from performance brands, one piece at a time.',
  },
  {
    title: 'Authenticate',
    text: 'Labels, care tags, stitching, hardware and fabric content are checked against retail stock. Anything we cannot verify does not go on sale.',
  },
  {
    title: 'Grade',
    text: 'Each item gets a condition rating (New, Like New, Good or Fair), and any wear is written into its description.',
  },
  {
    title: 'List',
    text: 'We photograph the item itself, add its sizes, colors and a size guide in inches, and put it in the shop.',
  },
  {
    title: 'Ship',
    text: 'Your order is packed within 48 hours and sent by USPS, arriving in 3-5 business days anywhere in the continental US.',
  },
] as const;

export default function StorefrontAboutPage() {
  return (
    <InfoPage
      eyebrow="Our story"
      title={`About ${useShopName()}`}
      width="wide"
      intro="Our mission is to give premium activewear a second life: every piece pre-loved, authenticated and ready for another season of training, and every order shared with the community that holds AELO."
    >
      <div className="space-y-20 sm:space-y-24">
        <section aria-labelledby="values-title">
          <h2
            id="values-title"
            className="text-xl font-semibold tracking-[-0.02em] text-stone-950 sm:text-2xl"
          >
            What we stand for
          </h2>
          <ul className="mt-6 grid gap-4 md:grid-cols-3">
            {values.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl bg-stone-50 p-6 ring-1 ring-stone-200/60 sm:p-7">
                <span className="flex size-11 items-center justify-center rounded-full bg-white text-rose-600 ring-1 ring-stone-200/80">
                  <Icon className="size-5" strokeWidth={1.75} aria-hidden="true" />
                </span>
                <h3 className="mt-6 text-lg font-semibold tracking-tight text-stone-950">{title}</h3>
                <p className="mt-2 text-[15px] leading-relaxed text-stone-600">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <div className="grid gap-12 lg:grid-cols-2 lg:gap-16">
          <InfoSection id="story" title="Our story">
            <p>
              Aelo was founded in 2024 by people who train every day and were tired of two things: paying full
              price for activewear that someone else had barely worn, and second-hand marketplaces where you
              could never be sure an item was genuine.
            </p>
            <p>
              So we built a shop where nothing is listed until it has been authenticated and graded, where the
              photos show the actual item, and where the condition is described honestly. We tied it to the
              AELO token on Solana so the people who believe in the shop share in what it earns.
            </p>
          </InfoSection>
          <InfoSection id="community" title="Community and rewards">
            <p>
              Every sale feeds the AELO ecosystem: 10% goes to token buybacks and the liquidity pool, and 10%
              to random holder rewards. Holders receive SOL airdrops, daily to the top 50 and at random
              intervals averaging 12 hours, sent automatically to their wallets with nothing to claim.
            </p>
            <p>
              Paying with AELO takes 10% off your order. Read{' '}
              <Link
                to={paths.howToBuy.getHref()}
                className="font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600"
              >
                How to Buy
              </Link>{' '}
              to get started.
            </p>
          </InfoSection>
        </div>

        <section aria-labelledby="process-title">
          <h2
            id="process-title"
            className="text-xl font-semibold tracking-[-0.02em] text-stone-950 sm:text-2xl"
          >
            From closet to your door in five steps
          </h2>
          <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
            {steps.map((step, i) => (
              <li key={step.title} className="rounded-2xl p-6 ring-1 ring-stone-200/80">
                <span className="text-sm font-semibold text-rose-600 tabular-nums">
                  {String(i + 1).padStart(2, '0')}
                </span>
                <h3 className="mt-3 text-base font-semibold text-stone-950">{step.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-stone-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <div className="flex flex-col items-start gap-6 rounded-3xl bg-stone-950 p-8 text-white sm:flex-row sm:items-center sm:justify-between sm:p-10">
          <div>
            <p className="text-2xl font-semibold tracking-tight">Find your next favorite piece.</p>
            <p className="mt-2 text-stone-400">
              Stock is whatever we have authenticated: when a piece is gone, it is gone.
            </p>
          </div>
          <Link to={paths.home.getHref()} className={buttonClasses({ size: 'lg', className: 'shrink-0' })}>
            Shop Now
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </InfoPage>
  );
}
