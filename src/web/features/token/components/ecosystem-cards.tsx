import { Building2, Gift, Repeat2, Tag } from 'lucide-react';
import { TOKEN_DISCOUNT_PERCENT } from '#common/money';
import { TOKEN_SYMBOL } from '#common/token';

/** Spec §1, §9: every sale is split 10 / 10 / 80. */
export const REVENUE_SPLIT = [
  { key: 'buybacks', percent: 10, label: 'Buybacks and liquidity pool', tone: 'bg-rose-600' },
  { key: 'rewards', percent: 10, label: 'Random holder rewards', tone: 'bg-rose-300' },
  { key: 'operations', percent: 80, label: 'Operations and growth', tone: 'bg-stone-300' },
] as const;

const cards = [
  {
    icon: Repeat2,
    figure: '10%',
    title: 'Buybacks & liquidity',
    text: `A tenth of every sale buys ${TOKEN_SYMBOL} back on the market and deepens the liquidity pool.`,
  },
  {
    icon: Gift,
    figure: '10%',
    title: 'Random holder rewards',
    text: 'Another tenth funds airdrops in SOL to holders, at random times and to the top 50 daily.',
  },
  {
    icon: Building2,
    figure: '80%',
    title: 'Operations & growth',
    text: 'The rest sources, authenticates and ships the clothes, and grows the shop and its community.',
  },
  {
    icon: Tag,
    figure: `${TOKEN_DISCOUNT_PERCENT}% off`,
    title: `Pay with ${TOKEN_SYMBOL}`,
    text: `Check out with ${TOKEN_SYMBOL} and save ${TOKEN_DISCOUNT_PERCENT}% on your whole order, shipping included.`,
  },
] as const;

/** The ecosystem section's body: the split as a bar, then four cards. */
export function EcosystemCards() {
  return (
    <div>
      <figure className="rounded-2xl bg-stone-50 p-5 ring-1 ring-stone-200/60 sm:p-6">
        <figcaption className="text-sm font-medium text-stone-900">
          Where every dollar of sales goes
        </figcaption>
        <div aria-hidden="true" className="mt-4 flex h-3 gap-1 overflow-hidden rounded-full">
          {REVENUE_SPLIT.map((part) => (
            <span
              key={part.key}
              className={`${part.tone} rounded-full`}
              style={{ width: `${part.percent}%` }}
            />
          ))}
        </div>
        <ul className="mt-4 flex flex-col gap-2 text-sm text-stone-600 sm:flex-row sm:gap-6">
          {REVENUE_SPLIT.map((part) => (
            <li key={part.key} className="flex items-center gap-2">
              <span aria-hidden="true" className={`size-2.5 rounded-full ${part.tone}`} />
              <span className="font-semibold text-stone-950 tabular-nums">{part.percent}%</span> {part.label}
            </li>
          ))}
        </ul>
      </figure>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map(({ icon: Icon, figure, title, text }) => (
          <li key={title} className="flex flex-col rounded-2xl bg-stone-50 p-6 ring-1 ring-stone-200/60">
            <span className="flex size-10 items-center justify-center rounded-full bg-white text-rose-600 ring-1 ring-stone-200/80">
              <Icon className="size-5" strokeWidth={1.75} aria-hidden="true" />
            </span>
            <p className="mt-6 text-3xl font-semibold tracking-tight text-stone-950 tabular-nums">{figure}</p>
            <h3 className="mt-2 text-[15px] font-semibold text-stone-950">{title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-stone-500">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
