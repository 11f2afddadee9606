import { useEffect } from 'react';
import { NavigationType, useLocation, useNavigationType, type Location } from 'react-router';

/** How long after arriving on an in-page anchor its section is kept in view while the page settles. */
export const HASH_ANCHOR_SETTLE_MS = 5_000;

const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * The first location the hook saw. The first page of a visit and a later step back to it are both
 * POP navigations to the key 'default'; only the first is this same location object (a re-run of
 * the effect, as in development's strict mode, sees it again).
 */
let firstLocation: Location | null = null;

/**
 * Keeps the section of an in-page anchor (/#rewards, /#ecosystem) at the top of the window while
 * content above it is still loading. The router scrolls to the anchor as soon as the page renders,
 * but the product grid above #rewards then grows from its loading skeleton to the whole catalogue
 * and pushes the section down: the shopper would land in the middle of the grid. Until the shopper
 * scrolls, taps or types (or a few seconds pass), every change of the page's height scrolls the
 * section back to the top. Back and forward keep the position the router restores.
 */
export function useHashAnchor(): void {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    const { hash } = location;
    firstLocation ??= location;
    const isHistoryStep = navigationType === NavigationType.Pop && firstLocation !== location;
    if (!hash || isHistoryStep) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    const target = document.getElementById(id);
    if (!target) return;

    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
      for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
    };
    const observer = new ResizeObserver(() => {
      if (Math.abs(target.getBoundingClientRect().top - scrollMarginTop(target)) > 1) {
        target.scrollIntoView({ block: 'start' });
      }
    });
    observer.observe(document.body);
    const timer = window.setTimeout(stop, HASH_ANCHOR_SETTLE_MS);
    for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
    return stop;
  }, [location, navigationType]);
}

function scrollMarginTop(element: HTMLElement): number {
  return Number.parseFloat(getComputedStyle(element).scrollMarginTop) || 0;
}
