import { ArrowUpRight, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { MIN_ADVISED_SOL, tokenBuyUrl, tokenChartUrl, TOKEN_SYMBOL } from '#common/token';
import { useTokenInfo } from '#web/lib/shop-info';
import { buttonClasses } from '#web/components/ui/button';
import { BuyTokenButton } from '#web/features/token/components/buy-token-button';
import { ContractAddress } from '#web/features/token/components/contract-address';
import { InfoPage } from '#web/app/layouts/info-page';

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses({ variant: 'outline', size: 'sm', className: 'mt-4' })}
    >
      {children}
      <ArrowUpRight className="size-3.5" aria-hidden="true" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

const steps = (mint: string | null, local: boolean): Array<{ title: string; body: ReactNode }> => [
  {
    title: 'Set up a wallet',
    body: (
      <>
        Install a Solana wallet such as Phantom or Solflare as a browser extension or phone app. Write your
        recovery phrase down on paper and keep it offline: anyone who has it controls your wallet, and we will
        never ask for it.
      </>
    ),
  },
  {
    title: 'Get SOL',
    body: (
      <>
        Buy SOL on an exchange or in your wallet app and send it to your wallet address. We advise holding at
        least {MIN_ADVISED_SOL} SOL: enough for your first purchase and the small network fees every Solana
        transaction needs.
      </>
    ),
  },
  {
    title: `Buy ${TOKEN_SYMBOL} on a decentralized exchange`,
    body: (
      <>
        Open the {TOKEN_SYMBOL} chart, connect your wallet to the exchange and swap SOL for {TOKEN_SYMBOL}.
        Always check that the token&apos;s contract address matches the one below before you confirm.
        {mint && local ? (
          // The demo ledger's token exists only in this shop: no exchange or chart knows it.
          <span className="mt-4 flex flex-col items-start gap-3">
            <span className="block">
              On this shop&apos;s demo ledger, buy {TOKEN_SYMBOL} here with test SOL.
            </span>
            <BuyTokenButton variant="outline" size="sm" />
          </span>
        ) : mint ? (
          <span className="flex flex-wrap gap-2">
            <ExternalLink href={tokenChartUrl(mint)}>View the {TOKEN_SYMBOL} chart</ExternalLink>
            <ExternalLink href={tokenBuyUrl(mint)}>Swap on Jupiter</ExternalLink>
          </span>
        ) : null}
      </>
    ),
  },
];

export default function StorefrontHowToBuyPage() {
  const token = useTokenInfo();
  const mint = token?.mint ?? null;
  return (
    <InfoPage
      eyebrow={`${TOKEN_SYMBOL} token`}
      title="How to Buy"
      intro={`Three steps from no wallet to holding ${TOKEN_SYMBOL}, the token that takes 10% off your orders and earns you a share of holder rewards.`}
    >
      <div
        role="note"
        aria-label="Investment risk"
        className="flex gap-4 rounded-2xl border border-amber-200 bg-amber-50 p-5 text-sm leading-relaxed text-amber-900"
      >
        <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
        <p>
          <strong className="font-semibold">Investment risk.</strong> Cryptocurrency is high risk: the value
          of {TOKEN_SYMBOL} can fall sharply or to zero, and past performance does not predict future results.
          Only invest what you can afford to lose, and do your own research. Nothing here is financial advice.
        </p>
      </div>

      <ol className="mt-12 space-y-4">
        {steps(mint, token?.cluster === 'local').map((step, i) => (
          <li
            key={step.title}
            className="flex gap-5 rounded-2xl p-6 ring-1 ring-stone-200/80 sm:gap-6 sm:p-7"
          >
            <span
              aria-hidden="true"
              className="flex size-10 shrink-0 items-center justify-center rounded-full bg-rose-600 text-sm font-semibold text-white tabular-nums"
            >
              {i + 1}
            </span>
            <div className="min-w-0">
              <h2 className="text-lg font-semibold tracking-[-0.01em] text-stone-950">
                <span className="sr-only">Step {i + 1}: </span>
                {step.title}
              </h2>
              <p className="mt-2 text-[15px] leading-relaxed text-pretty text-stone-600">{step.body}</p>
            </div>
          </li>
        ))}
      </ol>

      {mint ? (
        <div className="mt-12">
          <ContractAddress address={mint} />
        </div>
      ) : null}
      {token?.cluster === 'local' ? (
        <p className="mt-4 text-sm leading-relaxed text-stone-500">
          This shop runs on its local Solana ledger: the address above is the local {TOKEN_SYMBOL} mint, and
          the exchange links point at the public network. Buy {TOKEN_SYMBOL} here with the Buy Token button.
        </p>
      ) : null}
    </InfoPage>
  );
}
