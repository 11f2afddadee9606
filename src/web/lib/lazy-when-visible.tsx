import { use, useEffect, useState, type ComponentType, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
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
 * A click on a link of the shop inside server HTML that React does not own: the router follows it,
 * as it follows a <Link> (no page load, the page's frame and progress bar stay), unless the shopper
 * asked for another tab or window.
 */
function useFollowLinksInServerHtml() {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute('download')) return;
    if (link.origin !== window.location.origin) return;
    event.preventDefault();
    void navigate(link.pathname + link.search + link.hash);
  };
}

/** The server's HTML of a deferred part, kept as it is until the part's code renders it. */
function ServerHtml({ name, html }: { name: string; html: string }) {
  const followLink = useFollowLinksInServerHtml();
  return (
    // Only a link inside takes clicks (its Enter key arrives as a click too).
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div data-deferred={name} onClick={followLink} dangerouslySetInnerHTML={{ __html: html }} />
  );
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
 * Not for anything a shopper uses before it comes near: until then it is plain HTML, whose links
 * the router follows.
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
          {/* One component per loaded module, the same on every render. */}
          {/* eslint-disable-next-line react-hooks/static-components */}
          <Shown {...props} />
        </div>
      );
    }
    if (serverHtml !== null) {
      return <ServerHtml name={name} html={serverHtml} />;
    }
    return <div data-deferred={name}>{fallback}</div>;
  }
  return Deferred;
}
