import { cn } from '#web/lib/cn';
import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type ReactNode,
  type RefObject,
} from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeToMotion(onChange: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The visitor's reduced-motion setting; false on the server and while the page hydrates. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeToMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/** Height of the fixed storefront header: a band behind it counts as out of sight. */
const HEADER_HEIGHT_PX = 64;

/**
 * Whether the element is in sight (below the fixed header, inside the viewport). True until
 * measured, so the server's HTML and the first paint show the band as it will move.
 */
function useInSight(ref: RefObject<HTMLElement | null>): boolean {
  const [inSight, setInSight] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setInSight(entry?.isIntersecting ?? true), {
      rootMargin: `-${HEADER_HEIGHT_PX}px 0px 0px 0px`,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return inSight;
}

/**
 * A band of content scrolling right to left, forever. The content is drawn four times (two halves
 * of two copies) so the loop has no gap on wide screens; screen readers hear it once. It costs
 * nothing while nobody can see it: paused out of sight (scrolled away or behind the header), under
 * an open dialog (styles.css) and on hover; with reduced motion it stands still and scrolls by hand.
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
  const band = useRef<HTMLDivElement>(null);
  const inSight = useInSight(band);
  const still = usePrefersReducedMotion();
  return (
    // Standing still (reduced motion) it scrolls by hand, so the keyboard can reach it too.
    <div
      ref={band}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus (WCAG 2.1.1)
      tabIndex={still ? 0 : undefined}
      className={cn('overflow-hidden motion-reduce:overflow-x-auto', className)}
    >
      <div
        data-marquee-track
        data-paused={inSight ? undefined : ''}
        className="flex w-max hover:[animation-play-state:paused] data-paused:[animation-play-state:paused] motion-safe:animate-[aelo-marquee_var(--marquee-duration)_linear_infinite]"
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
