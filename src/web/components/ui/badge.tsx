import { cn } from '#web/lib/cn';
import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'rose' | 'green' | 'orange' | 'red' | 'blue' | 'violet';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-stone-100 text-stone-700 ring-stone-200',
  rose: 'bg-rose-50 text-rose-700 ring-rose-200',
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  orange: 'bg-amber-50 text-amber-800 ring-amber-200',
  red: 'bg-red-50 text-red-700 ring-red-200',
  blue: 'bg-sky-50 text-sky-700 ring-sky-200',
  violet: 'bg-violet-50 text-violet-700 ring-violet-200',
};

export interface BadgeProps {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
  /** A small dot before the text, in the badge's colour. */
  hasDot?: boolean;
}

/** A short status label: pill-shaped, tinted, readable on white. */
export function Badge({ tone = 'neutral', hasDot = false, className, children }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
    >
      {hasDot ? <span aria-hidden="true" className="size-1.5 rounded-full bg-current" /> : null}
      {children}
    </span>
  );
}
