import { useEffect } from 'react';
import { NavigationType, useLocation, useNavigationType, type Location } from 'react-router';
import { anchorTarget } from './anchor-target';

/**
 * The first location the hook saw. The first page of a visit and a later step back to it are both
 * POP navigations to the key 'default'; only the first is this same location object (a re-run of
 * the effect, as in development's strict mode, sees it again).
 */
let firstLocation: Location | null = null;

/**
 * Keeps the section of an in-page anchor (/#rewards, /#ecosystem) at the top of the window while
 * content above it is still loading. The router scrolls to the anchor as soon as the page renders,
 * but the product grid above #rewards then grows from its loading skeleton to its first page and
 * pushes the section down: the shopper would land in the middle of the grid. The code that holds
 * the section in place (keep-anchor-in-view.ts) loads only for a location with an anchor. Back and
 * forward keep the position the router restores.
 */
export function useHashAnchor(): void {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    const { hash } = location;
    firstLocation ??= location;
    const isHistoryStep = navigationType === NavigationType.Pop && firstLocation !== location;
    if (!hash || isHistoryStep) return;
    const target = anchorTarget(hash);
    if (!target) return;
    let live = true;
    let stop: (() => void) | undefined;
    void import('./keep-anchor-in-view').then(({ keepAnchorInView }) => {
      if (live) stop = keepAnchorInView(target);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [location, navigationType]);
}
