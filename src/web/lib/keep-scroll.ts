/**
 * Navigation state that keeps the window where it is (opening a product's modal from the grid,
 * closing it, changing the filters): pass it as a link's or navigate's `state`, merged with any
 * state of its own. The app's scroll restoration (app/scroll-restoration.tsx) reads it.
 */
export const keepScroll = { keepScroll: true } as const;

export function wantsKeptScroll(state: unknown): boolean {
  return (
    typeof state === 'object' && state !== null && (state as { keepScroll?: unknown }).keepScroll === true
  );
}
