import type { Config } from '@react-router/dev/config';

/**
 * The web app on React Router's framework mode (docs/decisions/018-framework-mode.md): route
 * modules under src/web/app, pages rendered on the server by the request handler the Hono server
 * mounts (src/server/modules/pages), the browser build in dist/web/client, the server build in
 * dist/web/server/index.js.
 */
export default {
  appDirectory: 'src/web/app',
  buildDirectory: 'dist/web',
  ssr: true,
} satisfies Config;
