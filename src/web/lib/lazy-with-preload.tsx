import { lazy, useState, type ComponentType } from 'react';

/**
 * React.lazy with a `preload()`: once preloaded, the component renders at once instead of
 * suspending. The server renderer preloads what a page shows on its first screen (the product
 * modal of a product URL), so the HTML holds it whole; the browser still loads it on first use.
 *
 * `prefetch` starts the load for an intent handler (pointer enter, focus, touch start).
 * `whenLoaded(show)` calls `show` once the module is in, for a dialog that mounts on a click: it
 * then renders at once, where mounting it at the click would show Suspense's fallback and React
 * would hold the dialog back until 300 ms after that fallback appeared (its reveal throttle). After
 * a failed load `show` still runs, and the component mounts through Suspense, which loads again or
 * reaches the error boundary.
 */
export function lazyWithPreload<P extends object>(load: () => Promise<ComponentType<P>>) {
  const { preload, loaded } = loadOnce(load);
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));

  function Preloadable(props: P) {
    // Chosen once per mount: switching from Lazy to the loaded component would remount it.
    const [Component] = useState<ComponentType<P>>(() => loaded() ?? Lazy);
    return <Component {...props} />;
  }
  const whenLoaded = (show: () => void) => void preload().then(show, show);
  const prefetch = () => void preload().catch(() => undefined);
  return Object.assign(Preloadable, { preload, prefetch, whenLoaded });
}

/**
 * A component's module loaded at most once: `preload()` starts it, `loaded()` has it once it is in.
 * A load that failed (the network dropped) is tried again by the next `preload()`.
 */
export function loadOnce<P extends object>(load: () => Promise<ComponentType<P>>) {
  let component: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  return {
    preload: () =>
      (pending ??= load().then(
        (loadedComponent) => (component = loadedComponent),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )),
    loaded: () => component,
  };
}
