import type { Server } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerBuild } from 'react-router';

/**
 * `npm run dev`: Vite's dev server inside this process (React Router's documented custom-server
 * setup, middleware mode). Its middleware answers the modules, styles and hot-reload socket it
 * serves; every other request (pages, API) goes on to Hono, whose pages handler renders with the
 * server build Vite rebuilds after each change. Never loaded in production: `vite` is a
 * development dependency.
 */
export interface WebDev {
  /** Vite's middleware in front of `next` (the Hono listener). */
  listener: (
    next: (req: IncomingMessage, res: ServerResponse) => void,
  ) => (req: IncomingMessage, res: ServerResponse) => void;
  loadBuild: () => Promise<ServerBuild>;
  close: () => Promise<void>;
}

export async function startWebDev(server: Server): Promise<WebDev> {
  const { createServer } = await import('vite');
  const vite = await createServer({
    server: { middlewareMode: true, hmr: { server } },
    appType: 'custom',
  });
  return {
    listener: (next) => (req, res) => vite.middlewares(req, res, () => next(req, res)),
    loadBuild: async () => (await vite.ssrLoadModule('virtual:react-router/server-build')) as ServerBuild,
    close: () => vite.close(),
  };
}
