import { use, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { loadOnce } from './lazy-with-preload';

/** Resolves once `element` is within `margin` of the viewport. */
function whenNear(element: Element, margin: string): Promise<void> {
  return new Promise((resolve) => {
    if (typeof IntersectionObserver === 'undefined') return resolve();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(element);
  });
}

/**
 * A part of a server-rendered page below the first screen whose code the browser loads only when
 * it comes near the viewport. The server renders it whole, inside a `<div data-deferred=name>`.
 * The browser does not hydrate it at first: it keeps that HTML as it is (the same div, its content
 * given back as HTML, which React does not walk), so nothing of it waits for code or takes part in
 * the page's hydration and updates. Once the div is within `margin` of the viewport, the code loads
 * and the component renders in its place (the same markup). Rendered in the browser without
 * server HTML (a client navigation), it loads at once and shows `fallback` meanwhile.
 *
 * Not for anything a shopper uses before it comes near: until then it is plain HTML (links work
 * as ordinary links).
 */
export function lazyWhenVisible<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
  { margin = '600px', fallback = null }: { margin?: string; fallback?: ReactNode } = {},
) {
  const { preload, loaded } = loadOnce(load);

  function Deferred(props: P) {
    const onServer = typeof document === 'undefined';
    // The server renders the part whole: its streaming render waits for the code.
    const ServerComponent = onServer ? (loaded() ?? use(preload())) : undefined;
    const [Component, setComponent] = useState<ComponentType<P> | undefined>(loaded);
    // The server's HTML of this part, when the page is hydrating it (read once, before React changes it).
    const [serverHtml] = useState(() =>
      onServer || loaded() ? null : (document.querySelector(`[data-deferred="${name}"]`)?.innerHTML ?? null),
    );

    useEffect(() => {
      if (Component) return;
      let live = true;
      const element = document.querySelector(`[data-deferred="${name}"]`);
      const ready = serverHtml !== null && element ? whenNear(element, margin) : Promise.resolve();
      void ready
        .then(preload)
        .then((component) => {
          if (live) setComponent(() => component);
        })
        .catch(() => undefined);
      return () => {
        live = false;
      };
    }, [Component, serverHtml]);

    const Shown = ServerComponent ?? Component;
    if (Shown) {
      return (
        <div data-deferred={name}>
          <Shown {...props} />
        </div>
      );
    }
    if (serverHtml !== null) {
      return <div data-deferred={name} dangerouslySetInnerHTML={{ __html: serverHtml }} />;
    }
    return <div data-deferred={name}>{fallback}</div>;
  }
  return Deferred;
}
