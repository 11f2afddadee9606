import { CircleCheck, CircleX } from 'lucide-react';
import { baseUnitsToDecimal, SOL_DECIMALS } from '#common/crypto-amounts';
import type { ExplorerTransaction } from '#common/schemas/chain';
import { Alert } from '#web/components/ui/alert';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { useDateFormatter } from '#web/lib/local-time';
import { useExplorerTransaction } from '../api/get-explorer-transaction';

function signedChange(pre: string, post: string, decimals: number): string {
  const delta = BigInt(post) - BigInt(pre);
  if (delta === 0n) return '0';
  return `${delta > 0n ? '+' : ''}${baseUnitsToDecimal(delta, decimals)}`;
}

function changeClass(pre: string, post: string): string {
  const delta = BigInt(post) - BigInt(pre);
  return delta > 0n ? 'text-emerald-700' : delta < 0n ? 'text-rose-700' : 'text-stone-400';
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-stone-100 py-3 sm:grid-cols-[10rem_1fr]">
      <dt className="text-sm text-stone-500">{label}</dt>
      <dd className="min-w-0 font-mono text-[13px] break-all text-stone-900">{children}</dd>
    </div>
  );
}

function Details({ tx }: { tx: ExplorerTransaction }) {
  const formatDate = useDateFormatter();
  return (
    <div className="space-y-10">
      <dl>
        <Row label="Signature">{tx.signature}</Row>
        <Row label="Result">
          <span
            className={`inline-flex items-center gap-1.5 font-sans text-sm font-semibold ${tx.status === 'success' ? 'text-emerald-700' : 'text-rose-700'}`}
          >
            {tx.status === 'success' ? (
              <CircleCheck className="size-4" aria-hidden="true" />
            ) : (
              <CircleX className="size-4" aria-hidden="true" />
            )}
            {tx.status === 'success' ? 'Success' : `Failed: ${tx.error ?? ''}`}
          </span>
        </Row>
        <Row label="Slot">{tx.slot.toLocaleString('en-US')}</Row>
        <Row label="Time">
          {tx.blockTime
            ? formatDate(tx.blockTime * 1000, {
                dateStyle: 'medium',
                timeStyle: 'medium',
              })
            : 'Unknown'}
        </Row>
        <Row label="Fee">{baseUnitsToDecimal(tx.feeLamports, SOL_DECIMALS)} SOL</Row>
        <Row label="Version">{String(tx.version)}</Row>
      </dl>

      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title" className="text-lg font-semibold text-stone-950">
          Accounts and SOL balance changes
        </h2>
        <div
          role="region"
          aria-labelledby="accounts-title"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
          tabIndex={0}
          className="mt-3 overflow-x-auto rounded-2xl ring-1 ring-stone-200"
        >
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="bg-stone-50 text-xs text-stone-500 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Address
                </th>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Role
                </th>
                <th scope="col" className="px-4 py-2.5 text-right font-medium">
                  Change (SOL)
                </th>
                <th scope="col" className="px-4 py-2.5 text-right font-medium">
                  Balance (SOL)
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {tx.accounts.map((a) => (
                <tr key={a.address}>
                  <td className="px-4 py-2.5 font-mono text-[12px] break-all text-stone-800">{a.address}</td>
                  <td className="px-4 py-2.5 text-xs text-stone-600">
                    {[a.signer ? 'Signer' : null, a.writable ? 'Writable' : 'Read-only']
                      .filter(Boolean)
                      .join(', ')}
                  </td>
                  <td
                    className={`px-4 py-2.5 text-right font-mono text-[12px] tabular-nums ${changeClass(a.preLamports, a.postLamports)}`}
                  >
                    {signedChange(a.preLamports, a.postLamports, SOL_DECIMALS)}
                  </td>
                  <td className="px-4 py-2.5 text-right font-mono text-[12px] text-stone-700 tabular-nums">
                    {baseUnitsToDecimal(a.postLamports, SOL_DECIMALS)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {tx.tokenBalances.length > 0 ? (
        <section aria-labelledby="tokens-title">
          <h2 id="tokens-title" className="text-lg font-semibold text-stone-950">
            Token balance changes
          </h2>
          <ul className="mt-3 divide-y divide-stone-100 rounded-2xl ring-1 ring-stone-200">
            {tx.tokenBalances.map((b) => (
              <li key={b.account} className="grid gap-1 px-4 py-3 text-[12px] sm:grid-cols-[1fr_auto]">
                <div className="min-w-0 font-mono break-all text-stone-700">
                  <span className="font-sans text-stone-500">Owner </span>
                  {b.owner}
                  <br />
                  <span className="font-sans text-stone-500">Mint </span>
                  {b.mint}
                </div>
                <p className={`font-mono tabular-nums sm:text-right ${changeClass(b.pre, b.post)}`}>
                  {signedChange(b.pre, b.post, b.decimals)}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="logs-title">
        <h2 id="logs-title" className="text-lg font-semibold text-stone-950">
          Program logs
        </h2>
        <pre className="mt-3 rounded-2xl bg-stone-950 p-4 text-[12px] leading-relaxed [overflow-wrap:anywhere] whitespace-pre-wrap text-stone-100">
          {tx.logs.join('\n')}
        </pre>
      </section>
    </div>
  );
}

/** The local explorer: one transaction of the local ledger, read-only. */
export function TransactionView({ signature }: { signature: string }) {
  const query = useExplorerTransaction(signature);
  // The page's HTML carries a known transaction (its route prefetches it): the placeholder is only
  // for an unknown one, whose error box takes its place at about its height (no layout shift).
  if (query.isPending) return <Skeleton className="h-12 w-full rounded-xl" />;
  if (query.isError) return <Alert variant="error">{errorMessage(query.error)}</Alert>;
  return <Details tx={query.data} />;
}
