import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// Here, between React DOM and the app: the app's modules are evaluated in a task of their own.
import { nextTask } from './lib/yield-to-browser';
import { App } from './app/app';
import { AppLoading } from './app/root';
import { loadRouteModules } from './app/router';
import { preloadConsentPrompts } from './features/consent/components/consent-prompts';
import { meQueryOptions } from './lib/current-user';
import { queryClient } from './lib/query-client';
import './app/styles.css';

// zod compiles a fast object parser with `new Function` when it may; the shop's CSP forbids eval,
// so zod's probe for it is a reported CSP violation on every page that validates a form. Jitless
// (zod's documented switch, set here through the global config object zod reads, so the entry
// does not import zod) skips the probe. Set before any schema parses: the schemas load later.
((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {}).jitless = true;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** What the server rendered the page with (entry-server.tsx), when it did. */
function serverState(): { queries: DehydratedState } | null {
  const script = document.getElementById('ssr-state');
  if (!script?.textContent) return null;
  try {
    return JSON.parse(script.textContent) as { queries: DehydratedState };
  } catch {
    return null;
  }
}

async function start(root: HTMLElement) {
  const state = serverState();
  if (state) {
    // Hydrate from the server's data and code: no second fetch, no loading state in between.
    hydrate(queryClient, state.queries);
    const consentPrompts = preloadConsentPrompts();
    for (const { handle, params } of await loadRouteModules(window.location.pathname))
      await handle?.preload?.({ params });
    await consentPrompts;
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page: a tap or a scroll is answered while it runs.
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
    return;
  }
  // A client-rendered page (the back office; an account page the server could not render for its
  // session): the current user loads alongside the page's code, every matched page's code at once
  // (a layout and its page), under the loading bar.
  void queryClient.prefetchQuery(meQueryOptions());
  const clientRoot = createRoot(root);
  clientRoot.render(<AppLoading />);
  await loadRouteModules(window.location.pathname).catch(() => undefined);
  clientRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// From a task of its own, not from the chunk's body: the first timers and fetches (the query
// cache's, the router's) are then not taken with that body on their stack (lib/yield-to-browser).
void nextTask().then(() => start(container));
