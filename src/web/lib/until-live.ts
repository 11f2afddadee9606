import { useHydrated } from './after-hydration';

/**
 * A control that only the app's code can answer (a filter, a section toggle, Show more, a copy
 * button) says so until the page is live: `aria-disabled` from the server's HTML until hydrated,
 * and these classes: as usual for the first 600 ms (a page live by then never changes), then
 * dimmed with a busy cursor, and back at once when live. A press once the code is hydrating still
 * counts (React replays it), so pointer events stay on. Forms and links work without the code and
 * need none of this.
 */
export const UNTIL_LIVE_CLASSES =
  'aria-disabled:cursor-progress aria-disabled:opacity-60 aria-disabled:transition-opacity aria-disabled:delay-600 aria-disabled:duration-200 starting:aria-disabled:opacity-100';

/** `aria-disabled` until the page is live (spread on the control, with UNTIL_LIVE_CLASSES). */
export function useUntilLive(): { 'aria-disabled'?: true } {
  return useHydrated() ? {} : { 'aria-disabled': true };
}
