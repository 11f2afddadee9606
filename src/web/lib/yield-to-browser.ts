/**
 * Imported by the entry (main.tsx) right after React DOM. Evaluating the entry's chunk is one task
 * of the browser's main thread unless something in it awaits: the bundler writes the chunk's
 * modules into one body, in import order, and everything after a top-level await waits for it. So
 * this hands the main thread back to the browser (a frame, a tap) between evaluating React DOM,
 * most of the chunk, and evaluating the app: two shorter tasks instead of one long one. Unbundled
 * (vite dev) the modules after it do not wait for it, which changes nothing else.
 */
await new Promise((resolve) => setTimeout(resolve));

export {};
