import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * `#common/*`, `#server/*` and `#web/*`: the import aliases of tsconfig.json's `paths` (esbuild
 * reads those for the server bundle; Vite and Vitest take them from here).
 */
export const importAliases = ['common', 'server', 'web'].map((area) => ({
  find: new RegExp(`^#${area}/`),
  replacement: fileURLToPath(new URL(`./src/${area}/`, import.meta.url)),
}));

/**
 * React Router's production build, for the browser build. Its package exports the development
 * build to every bundler (remix-run/react-router#12532, #14102, open); the two differ only in
 * `ENABLE_DEV_WARNINGS`, the development warnings and their strings (0.7 KB gzipped on the landing
 * page). The server keeps the package's own resolution (it is external to the server build).
 */
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production',
);
const reactRouterProduction = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
];

/**
 * Chunks of the browser build (docs/performance.md). React Router's build makes every route module
 * an entry, and left alone the bundler gives every module shared by a different set of routes a
 * chunk of its own: the landing page loaded 53 scripts, 30 of them under 1 KB (icons, formatters,
 * query keys), each with its own import lines and gzip stream. Three groups, each of code that a
 * page loads anyway when it loads any of it; a group takes the modules it names with everything
 * they import, a higher priority first:
 * - `framework`: React, React DOM and React Router, which every page runs;
 * - `root`: the root route (src/web/app/root.tsx) and what it imports (TanStack Query,
 *   tailwind-merge, the icon base, the error pages), which every page loads with it;
 * - `storefront`: the storefront's layout route and what it imports besides (header, footer, cart,
 *   consent prompts), which every storefront page loads with it. A page of the account area or
 *   the back office that uses one of its modules (the dialog, a header icon, the session query)
 *   loads this chunk too: 8-9 KB more on those pages, mostly cached from the storefront already.
 */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
const ROOT_ROUTE = /[\\/]src[\\/]web[\\/]app[\\/]root\.tsx$/;
const STOREFRONT_LAYOUT = /[\\/]src[\\/]web[\\/]app[\\/]routes[\\/]storefront[\\/]layout\.tsx$/;

/**
 * The web app: React Router's framework mode (react-router.config.ts) with Tailwind: one chunk per
 * route module and the chunk groups above, modulepreload links for the matched routes in the
 * server's HTML, the stylesheet linked from the root route (docs/performance.md).
 */
export default defineConfig(({ command, isSsrBuild }) => {
  const browserBuild = command === 'build' && !isSsrBuild;
  return {
    plugins: [tailwindcss(), reactRouter()],
    resolve: { alias: [...importAliases, ...(browserBuild ? reactRouterProduction : [])] },
    build: {
      sourcemap: true,
      assetsInlineLimit: 0,
      // No map of every lazily loaded chunk's dependencies in the entry (0.8 KB gzipped on the
      // landing page): React Router preloads a route's chunks itself (the server's modulepreload
      // links, its manifest on navigation), and a dialog's chunk then fetches the few chunks it
      // imports that the page has not loaded yet, one round trip later.
      modulePreload: false,
      ...(browserBuild
        ? {
            rolldownOptions: {
              output: {
                codeSplitting: {
                  groups: [
                    { name: 'framework', test: FRAMEWORK, priority: 3 },
                    { name: 'root', test: ROOT_ROUTE, priority: 2 },
                    { name: 'storefront', test: STOREFRONT_LAYOUT, priority: 1 },
                  ],
                },
              },
            },
          }
        : {}),
    },
  };
});
