import { Award, Gift, Shuffle, Trophy, Wallet as WalletIcon } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { shortHash } from '#common/format';
import { lamportsToSol } from '#common/crypto-amounts';
import { WALLET_TEXTS } from '#common/schemas/wallet';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { useTokenInfo } from '#web/lib/shop-info';
import { registerDemoWallet } from '#web/lib/solana/demo-wallet';
import { onWalletsChange } from '#web/lib/solana/wallets';
import { signingWallets, type SigningWallet } from '#web/lib/solana/wallet-sign-in';
import { useDateFormatter } from '#web/lib/local-time';
import { useLinkedWallet, useLinkWallet, useRewards, useUnlinkWallet } from '../api/wallet';

const card = 'rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6';
const sol = (lamports: string) =>
  `${lamportsToSol(lamports).toLocaleString('en-US', { maximumFractionDigits: 4 })} SOL`;

// A snapshot React reads as false on the server and while it hydrates the server's HTML, true after
// (lib/after-hydration's useHydrated does the same; importing it would add an export to the entry chunk).
const subscribeNothing = () => () => undefined;
const isBrowser = () => true;
const isServer = () => false;

/** The installed Solana wallets that can prove an address (and the Local Demo Wallet on the local ledger). */
function useSigningWallets(
  chain: string,
  demoWallet: boolean,
): { wallets: SigningWallet[]; ready: boolean; hydrated: boolean } {
  const [wallets, setWallets] = useState<SigningWallet[]>(() => signingWallets(chain));
  const [ready, setReady] = useState(!demoWallet);
  // The server knows no wallets: a page it rendered shows the placeholder until hydrated.
  const hydrated = useSyncExternalStore(subscribeNothing, isBrowser, isServer);
  useEffect(() => {
    const refresh = () => setWallets(signingWallets(chain));
    const off = onWalletsChange(refresh);
    if (demoWallet) {
      void registerDemoWallet()
        .catch(() => undefined)
        .then(() => {
          refresh();
          setReady(true);
        });
    }
    return off;
  }, [chain, demoWallet]);
  return { wallets, ready: ready && hydrated, hydrated };
}

/**
 * Disconnect Wallet is in the server's HTML of a linked account but works only once the app is
 * live: until then it says so (aria-disabled) and, should the code be slow to come, shows it (the
 * storefront header's buttons do the same): as usual for the first 600 ms, then dimmed and busy.
 */
const notLiveYet =
  'transition-[color,background-color,border-color,box-shadow,opacity] duration-200 aria-disabled:pointer-events-auto aria-disabled:cursor-progress aria-disabled:delay-600 starting:aria-disabled:opacity-100';

function linkError(error: unknown): string {
  if (isApiError(error) && error.hasServerMessage) return error.message;
  return WALLET_TEXTS.connect;
}

function RewardsPanel({ address }: { address: string }) {
  const rewards = useRewards(address);
  const formatDate = useDateFormatter();
  if (rewards.isError) {
    return (
      <Alert variant="error" title={WALLET_TEXTS.loadFailed}>
        {errorMessage(rewards.error, WALLET_TEXTS.fetchFailed)}
      </Alert>
    );
  }
  if (rewards.isPending) return <Skeleton className="h-40 w-full rounded-2xl" />;
  const r = rewards.data;
  const stats = [
    { label: 'Total earned', value: sol(r.totalEarned), icon: Award },
    { label: 'Random airdrops', value: sol(r.randomAirdrops), icon: Shuffle },
    { label: 'Top 50 rewards', value: sol(r.top50Rewards), icon: Trophy },
    { label: 'Top 50 rank', value: r.rank === null ? 'Not ranked' : `#${r.rank}`, icon: Gift },
  ];
  return (
    <section aria-labelledby="rewards-heading" className={card}>
      <h2 id="rewards-heading" className="text-lg font-semibold text-stone-950">
        Your rewards
      </h2>
      <p className="mt-1 text-sm text-stone-500">
        Rewards are sent to your wallet automatically: daily to the top 50 holders, and at random.
      </p>
      <dl className="mt-5 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {stats.map((s) => (
          <div key={s.label} className="rounded-xl bg-stone-50 p-4 ring-1 ring-stone-200/70">
            <dt className="flex items-center gap-1.5 text-xs font-medium text-stone-500">
              <s.icon className="size-3.5" aria-hidden="true" />
              {s.label}
            </dt>
            <dd className="mt-2 text-lg font-semibold text-stone-950 tabular-nums">{s.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-xs text-stone-500">
        {r.airdropCount === 0
          ? 'No airdrops to this wallet yet.'
          : `${r.airdropCount} airdrop${r.airdropCount === 1 ? '' : 's'}, the latest on ${formatDate(r.lastAirdropAt ?? '', { dateStyle: 'medium' })}.`}
      </p>
    </section>
  );
}

/** Connect (prove by signing) or disconnect a browser wallet, and the linked wallet's rewards. */
export function WalletRewards() {
  const token = useTokenInfo();
  if (!token) return <Skeleton className="h-48 w-full rounded-2xl" />;
  return <WalletRewardsFor chain={token.walletChain} demoWallet={token.demoWallet} />;
}

function WalletRewardsFor({ chain, demoWallet }: { chain: string; demoWallet: boolean }) {
  const linked = useLinkedWallet();
  const link = useLinkWallet();
  const unlink = useUnlinkWallet();
  const { wallets, ready, hydrated } = useSigningWallets(chain, demoWallet);
  const address = linked.data?.address ?? null;

  if (linked.isError)
    return <Alert variant="error">{errorMessage(linked.error, WALLET_TEXTS.loadFailed)}</Alert>;
  if (linked.isPending) return <Skeleton className="h-48 w-full rounded-2xl" />;

  return (
    <div className="space-y-6">
      <section aria-labelledby="wallet-heading" className={card}>
        <div className="flex items-start gap-3">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-700">
            <WalletIcon className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <h2 id="wallet-heading" className="text-lg font-semibold text-stone-950">
              {address ? 'Wallet connected' : 'Connect a wallet'}
            </h2>
            {address ? (
              <p className="mt-1 font-mono text-sm break-all text-stone-700" title={address}>
                {shortHash(address)}
              </p>
            ) : (
              <p className="mt-1 text-sm text-stone-500">
                Your wallet signs a one-time message to prove it is yours. No transaction, no fee.
              </p>
            )}
          </div>
        </div>
        <div aria-live="polite" className="mt-4 empty:hidden">
          {link.isError ? <Alert variant="error">{linkError(link.error)}</Alert> : null}
          {unlink.isError ? <Alert variant="error">{errorMessage(unlink.error)}</Alert> : null}
        </div>
        <div className="mt-5 flex flex-wrap gap-3">
          {address ? (
            <Button
              variant="outline"
              className={notLiveYet}
              aria-disabled={hydrated ? undefined : true}
              isLoading={unlink.isPending}
              onClick={() =>
                unlink.mutate(wallets.find((w) => w.accounts.some((a) => a.address === address)))
              }
            >
              Disconnect Wallet
            </Button>
          ) : !ready ? (
            <Skeleton className="h-11 w-44 rounded-xl" />
          ) : wallets.length === 0 ? (
            <Alert variant="info" className="w-full">
              {WALLET_TEXTS.install}.{' '}
              <a
                href="https://phantom.app/download"
                target="_blank"
                rel="noreferrer"
                className="font-semibold underline underline-offset-4"
              >
                Get Phantom
              </a>{' '}
              or any Solana wallet, then reload this page.
            </Alert>
          ) : (
            wallets.map((w) => (
              <Button
                key={w.name}
                isLoading={link.isPending && link.variables === w}
                disabled={link.isPending}
                onClick={() => link.mutate(w)}
              >
                <img src={w.icon} alt="" width={20} height={20} className="size-5 rounded" />
                {wallets.length === 1 ? 'Connect Wallet' : `Connect ${w.name}`}
              </Button>
            ))
          )}
        </div>
      </section>
      {address ? (
        <RewardsPanel address={address} />
      ) : (
        <div className="flex flex-col items-center rounded-2xl bg-white px-6 py-12 text-center ring-1 ring-stone-200/80">
          <Gift className="size-10 text-stone-300" aria-hidden="true" />
          <p className="mt-3 font-medium text-stone-900">{WALLET_TEXTS.connectToView}</p>
        </div>
      )}
    </div>
  );
}
