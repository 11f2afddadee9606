/**
 * Polls `fn` until it returns something truthy (a throw counts as not yet); fails after `ms`.
 *
 * Only for helpers that bench/ runs too (under tsx, outside Vitest: browser-orders.ts, outbox.ts),
 * where vi.waitFor and expect.poll cannot run (they need Vitest's worker state). Tests and helpers
 * only tests use wait with vi.waitFor or expect.poll.
 */
export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  ms: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
