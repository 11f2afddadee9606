import { useEffect, useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { anchorTarget } from '../lib/anchor-target';
import { wantsKeptScroll } from '../lib/keep-scroll';

const STORAGE_KEY = 'aelo-scroll-positions';
const MAX_ENTRIES = 100;

function readPositions(): Map<string, number> {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as [string, number][];
    return new Map(Array.isArray(stored) ? stored : []);
  } catch {
    return new Map();
  }
}

function savePositions(positions: Map<string, number>): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-MAX_ENTRIES)));
  } catch {
    // Storage full or blocked: positions are kept for this page's life only.
  }
}

/**
 * What the browser does for a multi-page site, for ours: a new page starts at the top (or at its
 * #anchor), Back and Forward return to where the shopper was, also after a reload of the tab; a
 * navigation marked `keepScroll` leaves the window alone.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const currentKey = useRef(location.key);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    // Recorded as each scroll event comes, not a frame later: Back may come before that frame.
    const record = () => positionsOf(positions).set(currentKey.current, window.scrollY);
    const persist = () => savePositions(positionsOf(positions));
    window.addEventListener('scroll', record, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', persist);
      persist();
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    const firstPage = currentKey.current === location.key;
    currentKey.current = location.key;
    placeWindow(positionsOf(positions).get(location.key), {
      firstPage,
      pop: navigationType === NavigationType.Pop,
      keep: wantsKeptScroll(location.state),
      hash: location.hash,
    });
    // Where this page now is, at once: the scroll event of the move comes with the next frame.
    positionsOf(positions).set(location.key, window.scrollY);
  }, [location.key, location.hash, location.state, navigationType]);

  return null;
}

function positionsOf(ref: { current: Map<string, number> | null }): Map<string, number> {
  ref.current ??= readPositions();
  return ref.current;
}

function placeWindow(
  saved: number | undefined,
  how: { firstPage: boolean; pop: boolean; keep: boolean; hash: string },
): void {
  // Back and Forward (and, on the first page of the visit, a reload): where the shopper was.
  if (how.pop && saved !== undefined) {
    window.scrollTo(0, saved);
    return;
  }
  if (how.firstPage || how.keep) return;
  const target = anchorTarget(how.hash);
  if (target) {
    target.scrollIntoView();
    return;
  }
  if (!how.pop) window.scrollTo(0, 0);
}
