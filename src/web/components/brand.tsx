import { cn } from '../lib/cn';
import { useShopName } from '../lib/shop-name';

export const BRAND_TAGLINE = 'Pre-loved activewear';
export const TOKEN_SYMBOL = 'AELO';

/** The mark: a rose disc with a white arc, like a running track seen from above. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="9" className="fill-rose-600" />
      <path
        d="M9.5 22.5 15.1 9.6a1 1 0 0 1 1.8 0l5.6 12.9"
        fill="none"
        stroke="white"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M12 18h8" stroke="white" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}

/** Mark + name + tagline. Put it inside a link; its text is the link's name. */
export function BrandLockup({
  tone = 'dark',
  showTagline = true,
}: {
  tone?: 'dark' | 'light';
  showTagline?: boolean;
}) {
  return (
    <span className="flex items-center gap-2.5">
      <BrandMark />
      <span className="flex flex-col leading-none">
        <span
          className={cn(
            'text-[19px] font-semibold tracking-[-0.03em]',
            tone === 'dark' ? 'text-stone-950' : 'text-white',
          )}
        >
          {useShopName()}
        </span>
        {showTagline ? (
          <span
            className={cn(
              'mt-1 text-[11px] font-medium whitespace-nowrap sm:text-[10px] sm:tracking-[0.14em] sm:uppercase',
              tone === 'dark' ? 'text-stone-500' : 'text-stone-400',
            )}
          >
            {BRAND_TAGLINE}
          </span>
        ) : null}
      </span>
    </span>
  );
}
