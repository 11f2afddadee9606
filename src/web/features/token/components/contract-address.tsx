import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '#web/lib/cn';
import { UNTIL_LIVE_CLASSES, useUntilLive } from '#web/lib/until-live';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The token's contract (mint) address, from the server's configuration, with a Copy button that
 * says 'Copied!' for two seconds.
 */
export function ContractAddress({ address }: { address: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const untilLive = useUntilLive();

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <div className="rounded-2xl bg-stone-950 p-5 text-white sm:p-6">
      <p
        id="contract-address-label"
        className="text-xs font-semibold tracking-[0.16em] text-stone-400 uppercase"
      >
        Token contract address
      </p>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-center">
        <code
          aria-labelledby="contract-address-label"
          className="min-w-0 flex-1 rounded-xl bg-white/5 px-4 py-3 font-mono text-[13px] leading-relaxed break-all text-stone-100 ring-1 ring-white/10 select-all"
        >
          {address}
        </code>
        <button
          type="button"
          onClick={() => void copy()}
          aria-describedby="contract-address-label"
          {...untilLive}
          className={cn(
            'inline-flex h-11 shrink-0 items-center justify-center gap-2 rounded-full bg-white px-5 text-sm font-medium text-stone-950 transition-colors hover:bg-rose-50',
            UNTIL_LIVE_CLASSES,
          )}
        >
          {state === 'copied' ? (
            <Check className="size-4 text-emerald-600" aria-hidden="true" />
          ) : (
            <Copy className="size-4" aria-hidden="true" />
          )}
          {state === 'copied' ? 'Copied!' : 'Copy'}
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-xs text-stone-400">
        {state === 'failed' ? 'Copy did not work here: select the address and copy it by hand.' : ''}
      </p>
    </div>
  );
}
