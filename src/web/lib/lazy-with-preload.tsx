import { lazy, useState, type ComponentType } from 'react';

/**
 * React.lazy with a `preload()`: once preloaded, the component renders at once instead of
 * suspending. The server renderer preloads what a page shows on its first screen (the product
 * modal of a product URL), so the HTML holds it whole; the browser still loads it on first use.
 */
export function lazyWithPreload<P extends object>(load: () => Promise<ComponentType<P>>) {
  const { preload, loaded } = loadOnce(load);
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));

  function Preloadable(props: P) {
    // Chosen once per mount: switching from Lazy to the loaded component would remount it.
    const [Component] = useState<ComponentType<P>>(() => loaded() ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
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
