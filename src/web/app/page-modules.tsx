import { use, useSyncExternalStore, type ComponentType } from 'react';
import type { PageHandle } from './page-data';

/** What a file under ./routes exports: its page, and what the server prefetches for it. */
export interface PageModule {
  Component: ComponentType;
  handle?: PageHandle;
}

const pageFiles = import.meta.glob<PageModule>('./**/*.tsx', { base: './routes' });

const loaded = new Map<string, PageModule>();
const loading = new Map<string, Promise<PageModule>>();

/** Page files still on their way (the navigation progress bar shows while there are any). */
let pending = 0;
const listeners = new Set<() => void>();
function setPending(delta: number) {
  pending += delta;
  for (const listener of listeners) listener();
}

export function hasPageFile(file: string): boolean {
  return `./${file}.tsx` in pageFiles;
}

/**
 * The module of a page file (`storefront/home` is ./routes/storefront/home.tsx), loaded once: every
 * page is its own chunk. A failed load (a deploy replaced the chunks) stays failed: the page's
 * error boundary says so and offers a reload, instead of React retrying it in a loop.
 */
export function loadPage(file: string): Promise<PageModule> {
  const done = loaded.get(file);
  if (done) return Promise.resolve(done);
  let promise = loading.get(file);
  if (promise) return promise;
  const load = pageFiles[`./${file}.tsx`];
  if (!load) throw new Error(`No route module ./routes/${file}.tsx`);
  // Counted after this render: a store must not change while React renders another component.
  queueMicrotask(() => setPending(1));
  promise = load().then(
    (module) => {
      loaded.set(file, module);
      loading.delete(file);
      queueMicrotask(() => setPending(-1));
      return module;
    },
    (error: unknown) => {
      queueMicrotask(() => setPending(-1));
      throw error;
    },
  );
  loading.set(file, promise);
  return promise;
}

/**
 * A page of the route table. Its module is there at once when it was loaded before (hydration
 * loads the matched pages first, so the first render matches the server's HTML); otherwise the
 * page suspends while its chunk loads, and the router's transition keeps the previous page on
 * screen meanwhile.
 */
export function LazyPage({ file }: { file: string }) {
  const module = loaded.get(file) ?? use(loadPage(file));
  const Page = module.Component;
  return <Page />;
}

/** True while a page's code is loading. */
export function usePageLoading(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending > 0,
    () => false,
  );
}
