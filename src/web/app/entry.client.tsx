import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

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
