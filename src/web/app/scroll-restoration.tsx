import { useEffect, useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
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
    positions.current = readPositions();
    window.history.scrollRestoration = 'manual';
    let frame = 0;
    const record = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        positions.current?.set(currentKey.current, window.scrollY);
      });
    };
    const persist = () => {
      if (positions.current) savePositions(positions.current);
    };
    window.addEventListener('scroll', record, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', persist);
      persist();
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    const previousKey = currentKey.current;
    currentKey.current = location.key;
    if (previousKey === location.key) {
      // The first page of the visit: after a reload, where the shopper was.
      const saved = readPositions().get(location.key);
      if (navigationType === NavigationType.Pop && saved !== undefined) window.scrollTo(0, saved);
      return;
    }
    const saved = positions.current?.get(location.key);
    if (navigationType === NavigationType.Pop && saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    if (wantsKeptScroll(location.state)) return;
    if (location.hash) {
      let id = location.hash.slice(1);
      try {
        id = decodeURIComponent(id);
      } catch {
        // A malformed anchor: look it up as written.
      }
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    if (navigationType !== NavigationType.Pop) window.scrollTo(0, 0);
  }, [location.key, location.hash, location.state, navigationType]);

  return null;
}
