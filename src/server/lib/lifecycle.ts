/**
 * Whether this instance is shutting down. main.ts calls drain() on SIGTERM: from then on
 * /api/health/ready answers 503, live-event streams end (and new ones are refused) while the
 * requests already in flight finish.
 */
export interface Lifecycle {
  readonly isDraining: boolean;
  /** Starts the drain (idempotent): runs every onDrain callback once. */
  drain(): void;
  /** Runs fn when the drain starts (at once if it has); returns the function that cancels it. */
  onDrain(fn: () => void): () => void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  const callbacks = new Set<() => void>();
  return {
    get isDraining() {
      return draining;
    },
    drain() {
      if (draining) return;
      draining = true;
      for (const fn of [...callbacks]) fn();
      callbacks.clear();
    },
    onDrain(fn) {
      if (draining) {
        queueMicrotask(fn);
        return () => undefined;
      }
      callbacks.add(fn);
      return () => {
        callbacks.delete(fn);
      };
    },
  };
}
