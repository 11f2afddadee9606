import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * `#common/*`, `#server/*` and `#web/*`: the import aliases of tsconfig.json's `paths` (esbuild
 * reads those for the server bundle; Vite and Vitest take them from here).
 */
export const importAliases = ['common', 'server', 'web'].map((area) => ({
  find: new RegExp(`^#${area}/`),
  replacement: fileURLToPath(new URL(`./src/${area}/`, import.meta.url)),
}));

const LANDING_PAGE = fileURLToPath(new URL('./src/web/app/routes/storefront/home.tsx', import.meta.url));
const FIRST_VISIT_PROMPTS = /features[\\/]consent[\\/]components[\\/]first-visit-prompts\.tsx$/;
const LUCIDE_INDEX = /lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;

/**
 * The landing page's code in a few requests instead of twenty (decision 011). Left alone, the
 * bundler gives every module shared by a different set of pages a chunk of its own, and the
 * landing page fetched eleven chunks of 200-1,000 bytes (icons, formatters, query keys), each with
 * its own import lines and compression start. `landingShared` holds the modules the landing page
 * uses that other lazily loaded pages or parts use too; they travel as one `storefront` chunk, so
 * the landing page fetches them in one request, and a page that needs one of them fetches the
 * others as well (2-3 KB).
 */
const landingShared = new Set<string>();

/**
 * The storefront's dialogs that load on first open (Buy Token, the cart drawer, the product view,
 * the small screens' menu). The small modules two or more of them use besides what the landing
 * page has (form fields, alerts, formatters, icons) travel as one `dialogs`
 * chunk: left alone each is a chunk of 200-1,000 bytes, and the Buy Token modal's first open
 * fetched thirteen of them, a second wave of requests after its own chunk.
 */
const STOREFRONT_DIALOGS = [
  'src/web/features/token/components/buy-token-modal.tsx',
  'src/web/features/checkout/components/cart-drawer-panel.tsx',
  'src/web/features/catalog/components/product-modal.tsx',
  'src/web/app/layouts/mobile-menu.tsx',
].map((file) => fileURLToPath(new URL(`./${file}`, import.meta.url)));
/** Larger than this (bytes of code as bundled), a shared module keeps its own chunk. */
const DIALOG_SHARED_MAX_BYTES = 8_000;
const dialogsShared = new Set<string>();

function landingChunkPlugin(): Plugin {
  return {
    name: 'aelo:landing-chunk',
    apply: 'build',
    buildEnd() {
      landingShared.clear();
      const ids = [...this.getModuleIds()];
      if (!ids.includes(LANDING_PAGE)) return;
      // Icons come through lucide-react's index, which re-exports them all: an import of the index
      // counts as an import of the icons the module names.
      const lucideIndex = ids.find((id) => LUCIDE_INDEX.test(id));
      const iconFiles = new Map<string, string>();
      const indexCode = lucideIndex ? (this.getModuleInfo(lucideIndex)?.code ?? '') : '';
      for (const [, names, file] of indexCode.matchAll(/export \{([^}]*)\} from '\.\/(icons\/[\w-]+\.mjs)'/g))
        for (const [, name] of names!.matchAll(/as (\w+)/g))
          iconFiles.set(name!, path.join(path.dirname(lucideIndex!), file!));
      const importsOf = new Map<string, string[]>();
      const imports = (id: string): string[] => {
        const known = importsOf.get(id);
        if (known) return known;
        const info = this.getModuleInfo(id);
        if (!info) return [];
        const icons = [...(info.code ?? '').matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g)]
          .flatMap(([, names]) =>
            names!.split(',').map((name) => iconFiles.get(name.trim().split(/\s+as\s+/)[0]!)),
          )
          .filter((file) => file !== undefined);
        const found = [...info.importedIds.filter((imported) => imported !== lucideIndex), ...icons];
        importsOf.set(id, found);
        return found;
      };
      const reach = (from: string, stopAt?: ReadonlySet<string>): Set<string> => {
        const seen = new Set<string>();
        const stack = [from];
        for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
          if (seen.has(id) || stopAt?.has(id)) continue;
          seen.add(id);
          stack.push(...imports(id));
        }
        return seen;
      };
      const infos = ids.flatMap((id) => this.getModuleInfo(id) ?? []);
      // What the entry loads travels with the entry.
      const initial = new Set(
        infos.filter((i) => i.isEntry && !i.dynamicImporters.length).flatMap((i) => [...reach(i.id)]),
      );
      const landing = reach(LANDING_PAGE, initial);
      for (const lazy of infos.filter((i) => i.dynamicImporters.length)) {
        const used = reach(lazy.id, initial);
        if (used.has(LANDING_PAGE)) continue; // the landing page itself, or the product URL
        for (const id of used) if (landing.has(id)) landingShared.add(id);
      }
      dialogsShared.clear();
      const usedBy = new Map<string, number>();
      const loaded = new Set([...initial, ...landing]);
      for (const dialog of STOREFRONT_DIALOGS.filter((id) => ids.includes(id)))
        for (const id of reach(dialog, loaded)) usedBy.set(id, (usedBy.get(id) ?? 0) + 1);
      for (const [id, count] of usedBy) {
        const size = this.getModuleInfo(id)?.code?.length ?? Infinity;
        if (count >= 2 && size <= DIALOG_SHARED_MAX_BYTES && !FIRST_VISIT_PROMPTS.test(id))
          dialogsShared.add(id);
      }
    },
  };
}

const reactRouterProduction = fileURLToPath(
  new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
);
const REACT_ROUTER_PRODUCTION = /react-router[\\/]dist[\\/]production[\\/].*\.mjs$/;

/**
 * React Router's production build names its components for React DevTools at the top level
 * (`Form.displayName = "Form"`): a statement with an effect, so the bundler kept every component
 * so named in the landing page's code whether the shop uses it or not (Form, ScrollRestoration,
 * HistoryRouter: 0.1 KB gzipped). Without the names, which only DevTools shows, the unused ones
 * fall away (each name's line is emptied, so the module keeps its line numbers for the source map). A plugin rather than the bundler's `propertyWriteSideEffects: false`, which drops
 * property writes everywhere (it changed React DOM's commit code).
 */
function reactRouterDisplayNamesPlugin(): Plugin {
  return {
    name: 'aelo:react-router-display-names',
    apply: 'build',
    transform(code, id) {
      if (!REACT_ROUTER_PRODUCTION.test(id)) return null;
      const stripped = code.replace(/^\s*[\w$]+\.displayName = "[^"\n]*";$/gm, '');
      return stripped === code ? null : { code: stripped, map: null };
    },
  };
}

const PRELOAD_HELPER = '\0vite/preload-helper.js';

/**
 * Vite wraps every dynamic import in its preload helper (`__vitePreload(() => import(...), deps)`),
 * which adds `<link>` tags for the chunk's dependencies before importing it. Here nothing is ever
 * preloaded that way: `modulePreload: false` leaves out the JavaScript dependencies and one
 * stylesheet for all (`cssCodeSplit: false`) leaves out the CSS, so every call gets `[]`, and the
 * helper's link and nonce code (0.5 KB gzipped in the landing page's entry) never runs. This helper
 * keeps what it does with `[]`: import, and on failure the cancelable `vite:preloadError` event
 * Vite documents, then the error. Should a dynamic import ever get dependencies to preload (a build
 * option changed), the build stops instead of leaving them out. (Vite keeps its helper whatever
 * `modulePreload` says: vitejs/vite#18551.)
 */
function emptyPreloadHelperPlugin(): Plugin {
  return {
    name: 'aelo:empty-preload-helper',
    apply: 'build',
    load(id) {
      if (id !== PRELOAD_HELPER) return null;
      return `export const __vitePreload = (load) =>
  load().catch((error) => {
    const event = new Event('vite:preloadError', { cancelable: true });
    event.payload = error;
    window.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
  });`;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle))
          if (chunk.type === 'chunk' && chunk.code.includes('__vite__mapDeps'))
            this.error(
              `${chunk.fileName}: a dynamic import has dependencies to preload, which the preload helper of aelo:empty-preload-helper leaves out; remove that plugin from vite.config.ts`,
            );
      },
    },
  };
}

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    landingChunkPlugin(),
    reactRouterDisplayNamesPlugin(),
    emptyPreloadHelperPlugin(),
  ],
  resolve: {
    alias: [
      ...importAliases,
      // React Router's package exports its development build to every bundler; the production
      // build differs only in leaving out the development warnings (0.5 KB gzipped in the browser).
      ...(command === 'build' && !isSsrBuild
        ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
        : []),
    ],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    assetsInlineLimit: 0,
    // The server reads it to preload a page's chunks with its HTML (modules/pages/page-renderer.ts).
    manifest: true,
    modulePreload: false,
    // One stylesheet, which the server writes into the page (page-renderer.ts). Split per chunk, the
    // lazily loaded chunks listed it as theirs, and Vite's loader, finding no <link> to it, linked it
    // again on the first product opened: fetched twice, every rule in the page matched twice.
    cssCodeSplit: false,
    rolldownOptions: {
      output: isSsrBuild
        ? {}
        : {
            // Seven characters of content hash (42 bits; the fewest rolldown allows for this many chunks)
            // tell two builds of one chunk apart, and the landing page's entry names 44 chunks: one random
            // character fewer each is about 35 gzipped bytes of its 120 KB budget.
            entryFileNames: 'assets/[name]-[hash:7].js',
            chunkFileNames: 'assets/[name]-[hash:7].js',
            codeSplitting: {
              groups: [
                // Whatever the entry imports travels in the entry chunk, not in chunks of its own.
                { name: 'index', tags: ['$initial'], priority: 3 },
                { name: 'storefront', test: (id) => landingShared.has(id), priority: 2 },
                // The two first-visit prompts always load together.
                { name: 'consent', test: FIRST_VISIT_PROMPTS, priority: 1 },
                { name: 'dialogs', test: (id) => dialogsShared.has(id), priority: 1 },
              ],
            },
          },
    },
  },
  server: {
    port: 3000,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/uploads': { target: apiTarget },
      '/local-chain': { target: apiTarget },
    },
  },
}));
