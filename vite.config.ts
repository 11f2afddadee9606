import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
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
 * The web app: React Router's framework mode (react-router.config.ts) with Tailwind. The build is
 * React Router's own: one chunk per route module, modulepreload links for the matched routes in
 * the server's HTML, the stylesheet linked from the root route (docs/performance.md).
 */
export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { alias: importAliases },
  build: {
    sourcemap: true,
    assetsInlineLimit: 0,
  },
});
