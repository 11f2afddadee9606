/**
 * Crash points (test-only): named places between the steps of the payment, token-sale and airdrop
 * flows where the fault tests (tests/integration/faults-crash.test.ts) kill the server. When
 * CRASH_AT names a point (config.ts; refused under NODE_ENV=production), the process sends itself
 * SIGKILL the first time it gets there: no `finally`, no shutdown hook, no flush, as a power cut or
 * the kernel's OOM killer would. Unarmed, a crash point is one string comparison.
 */

export const CRASH_POINTS = [
  // Checkout (cards and crypto): the pending payment and its stock hold committed, nothing answered.
  'checkout:after-reserve',
  // Card checkout: the Stripe Checkout Session exists at Stripe, the payment does not know it yet.
  'checkout:after-stripe-session',
  // A signed Stripe webhook verified, before its transaction.
  'stripe-webhook:received',
  // The payment's order placed inside the confirming transaction, before it commits (cards, crypto).
  'payments:order-placed',
  // The confirmation committed, before the webhook's answer or the watcher's next step.
  'payments:after-confirm',
  // The payment watcher found a valid transfer for a crypto payment, before confirming it.
  'crypto:transfer-seen',
  // Buy Token: the purchase recorded, before its answer.
  'token-sales:after-create',
  // Buy Token: the treasury-signed transaction recorded as handed out, before the wallet gets it.
  'token-sales:after-issue',
  // Buy Token: the purchase's transaction found on the chain, before it is recorded as delivered.
  'token-sales:transfer-seen',
  // Buy Token: recorded as delivered, before the watcher moves on.
  'token-sales:after-complete',
  // Airdrop: the holder snapshot saved, before the run and its batches are planned.
  'airdrops:after-snapshot',
  // Airdrop: the run and every batch planned (the pool debited), before anything is sent.
  'airdrops:after-plan',
  // Airdrop: a batch's signature recorded, before it is sent.
  'airdrops:batch-recorded',
  // Airdrop: a batch sent, before it is seen landed and marked so.
  'airdrops:batch-sent',
  // Airdrop: a batch marked landed, before the next one.
  'airdrops:batch-landed',
  // Refund: a crypto refund's signed transaction recorded, before it is sent; a card refund's
  // attempt recorded, before Stripe is asked.
  'refunds:after-record',
  // Refund: the transaction sent (or Stripe's refund created), before the outcome is recorded.
  'refunds:after-send',
] as const;

export type CrashPointName = (typeof CRASH_POINTS)[number];

let armed: CrashPointName | undefined;

/** What an in-process test does at a point (a throw stands for the process ending there). */
export type CrashPointHandler = (name: CrashPointName, detail: CrashPointDetail) => void;
/** Where the flow is when it reaches a point (an airdrop's batch number). */
export type CrashPointDetail = Readonly<Record<string, number | string>>;

let handler: CrashPointHandler | undefined;

/**
 * Test-only, in process: `handler` runs at every crash point reached (with the point's detail) and
 * may throw there, as a test of a single step would crash it without killing the test's process;
 * returns how to remove it. The same points, the same places: one fault mechanism for the
 * in-process tests and the killed-process ones.
 */
export function onCrashPoint(next: CrashPointHandler): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = undefined;
  };
}

/** Arms one point for this process (main.ts, from config.crashAt); undefined disarms. */
export function armCrashPoint(name: CrashPointName | undefined): void {
  armed = name;
}

/** Kills this process with SIGKILL when `name` is the armed point; otherwise does nothing. */
export function crashPoint(name: CrashPointName, detail: CrashPointDetail = {}): void {
  handler?.(name, detail);
  if (armed !== name) return;
  // A signal a process sends itself is delivered before kill() returns: nothing after this runs.
  process.kill(process.pid, 'SIGKILL');
}
