/**
 * Imported by the entry (main.tsx) right after React DOM. Evaluating the entry's chunk is one task
 * of the browser's main thread unless something in it awaits: the bundler writes the chunk's
 * modules into one body, in import order, and everything after a top-level await waits for it. So
 * this hands the main thread back to the browser (a frame, a tap) between evaluating React DOM,
 * most of the chunk, and evaluating the app: two shorter tasks instead of one long one. Unbundled
 * (vite dev) the modules after it do not wait for it, which changes nothing else.
 */

/**
 * Resolves in the browser's next task: a message to itself, not `setTimeout` (React's scheduler
 * yields the same way). A profiler (DevTools, Lighthouse) records a timer with its call stack, and
 * a stack taken with the chunk's body on it can make V8 parse that whole body again for its source
 * positions (seen in a trace of /login: about 30 ms on this host, more on a slowed CPU).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

await nextTask();
