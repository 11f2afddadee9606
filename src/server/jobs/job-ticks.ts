/**
 * When each periodic job of this instance last completed a tick (the /metrics job lag gauge).
 * A job registers when it starts; a tick that fails (database down) does not count as completed,
 * so the lag of a job that keeps failing, or hangs, grows until an alert sees it.
 */
export interface JobTicks {
  /** Registers a running job; returns what its loop calls after each completed tick. */
  track(job: string): { completed(): void; untrack(): void };
  /** Seconds since each running job last completed a tick (since it started, before the first). */
  lagSeconds(now?: number): Array<{ job: string; seconds: number }>;
}

export function createJobTicks(): JobTicks {
  const last = new Map<string, number>();
  return {
    track(job) {
      last.set(job, Date.now());
      return {
        completed: () => {
          if (last.has(job)) last.set(job, Date.now());
        },
        untrack: () => {
          last.delete(job);
        },
      };
    },
    lagSeconds(now = Date.now()) {
      return [...last].map(([job, at]) => ({ job, seconds: Math.max(0, now - at) / 1000 }));
    },
  };
}
