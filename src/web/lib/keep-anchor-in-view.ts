/** How long after arriving on an in-page anchor its section is kept in view while the page settles. */
export const HASH_ANCHOR_SETTLE_MS = 5_000;

const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Until the shopper scrolls, taps or types (or a few seconds pass), every change of the page's
 * height scrolls `target` back to the top of the window (use-hash-anchor.ts). Returns the stop.
 */
export function keepAnchorInView(target: HTMLElement): () => void {
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
}

function scrollMarginTop(element: HTMLElement): number {
  return Number.parseFloat(getComputedStyle(element).scrollMarginTop) || 0;
}
