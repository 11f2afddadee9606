import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

// zod compiles a fast object parser with `new Function` when it may; the shop's CSP forbids eval,
// so zod's probe for it is a reported CSP violation on every page that validates a form. Jitless
// (zod's documented switch, set through the global config object zod reads) skips the probe. Set
// here, before any route module (and so any schema) is evaluated.
((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {}).jitless = true;

// Hydrates as soon as the code is in (React Router's scripts are modules: they run once the HTML is
// parsed). As a transition, hydration yields to the browser every few milliseconds instead of
// holding the main thread for the whole page, and React replays a click that arrived meanwhile.
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
