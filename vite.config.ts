import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
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

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: importAliases },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    assetsInlineLimit: 0,
    // The server reads it to preload a page's chunks with its HTML (modules/pages/page-renderer.ts).
    manifest: true,
    modulePreload: false,
  },
  server: {
    port: 3000,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget },
      '/local-chain': { target: apiTarget },
    },
  },
});
