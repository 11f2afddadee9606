import { useSyncExternalStore } from 'react';

/**
 * Browser-only state (the persisted cart and checkout) must not differ from the server's HTML
 * while React hydrates it. Stores register here and read localStorage once the page has
 * hydrated (the root route, app/root.tsx, calls markHydrated); a store loaded later reads it at once.
 */
let hydrated = false;
const waiting: (() => void)[] = [];

export function afterHydration(run: () => void): void {
  if (hydrated) run();
  else waiting.push(run);
}

export function markHydrated(): void {
  if (hydrated) return;
  hydrated = true;
  // For tests and tools: the page is interactive from here on.
  document.documentElement.dataset.hydrated = 'true';
  for (const run of waiting.splice(0)) run();
  for (const listener of listeners) listener();
}

const listeners = new Set<() => void>();

/**
 * False on the server and while the server's HTML hydrates, true after: for what only the browser
 * knows (the history entry's state), which the first render must leave out to match the HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => hydrated,
    () => false,
  );
}
