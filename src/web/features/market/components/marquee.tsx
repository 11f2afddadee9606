import { cn } from '#web/lib/cn';
import type { CSSProperties, ReactNode } from 'react';

const KEYFRAMES = '@keyframes aelo-marquee{from{transform:translateX(0)}to{transform:translateX(-50%)}}';

/**
 * A band of content scrolling right to left, forever. The content is drawn four times (two halves
 * of two copies) so the loop has no gap on wide screens; screen readers hear it once. It pauses on
 * hover, and with reduced motion it stands still and scrolls by hand instead.
 */
export function Marquee({
  children,
  durationSeconds = 40,
  className,
}: {
  children: ReactNode;
  durationSeconds?: number;
  className?: string;
}) {
  const copy = (hidden: boolean, key: string) => (
    <div key={key} aria-hidden={hidden || undefined} className="flex shrink-0 items-center">
      {children}
    </div>
  );
  return (
    <div className={cn('overflow-hidden motion-reduce:overflow-x-auto', className)}>
      <style href="aelo-marquee" precedence="default">
        {KEYFRAMES}
      </style>
      <div
        className="flex w-max hover:[animation-play-state:paused] motion-safe:animate-[aelo-marquee_var(--marquee-duration)_linear_infinite]"
        style={{ '--marquee-duration': `${durationSeconds}s` } as CSSProperties}
      >
        {copy(false, 'a')}
        {copy(true, 'b')}
        {copy(true, 'c')}
        {copy(true, 'd')}
      </div>
    </div>
  );
}
