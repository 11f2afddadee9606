// ESLint flat config: type-aware typescript-eslint, react-hooks, jsx-a11y, TanStack Query,
// import boundaries (STYLE.md "Which way imports go"), kebab-case file names, env only in config.ts.
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import checkFile from 'eslint-plugin-check-file';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/** Sub-folders of a source folder (the zones below are made per feature and per module). */
const foldersOf = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

// Web features: a feature never imports another one (app/ composes them). The admin area is a
// group of features of its own, which may share admin/shared.
const ADMIN_FEATURES = foldersOf('./src/web/features/admin').filter((f) => f !== 'shared');
const WEB_FEATURES = foldersOf('./src/web/features').filter((f) => f !== 'admin');
const featureZones = [
  ...WEB_FEATURES.map((f) => ({
    target: `./src/web/features/${f}`,
    from: './src/web/features',
    except: [`./${f}`],
    message: 'a feature never imports another feature: compose them in src/web/app',
  })),
  ...ADMIN_FEATURES.map((f) => ({
    target: `./src/web/features/admin/${f}`,
    from: './src/web/features',
    except: [`./admin/${f}`, './admin/shared'],
    message: 'a feature never imports another feature: compose them in src/web/app',
  })),
  {
    target: './src/web/features/admin/shared',
    from: './src/web/features',
    except: ['./admin/shared'],
    message: 'admin/shared is used by the admin features, it does not use them',
  },
];

// Server modules: routes -> service -> repository; a service may call another module's service,
// never its repository; a repository never calls a service.
const SERVER_MODULES = foldersOf('./src/server/modules');
const moduleZones = [
  ...SERVER_MODULES.map((m) => ({
    target: `./src/server/modules/${m}/**/!(*.test).ts`,
    from: `./src/server/modules/!(${m})/**/*.repository.ts`,
    message: "call the other module's service, never its repository",
  })),
  {
    target: './src/server/modules/**/*.repository.ts',
    from: ['./src/server/modules/**/*.service.ts', './src/server/modules/**/*.routes.ts'],
    message: 'a repository only queries: it never imports a service or a route',
  },
  {
    target: './src/server/modules/**/*.service.ts',
    from: './src/server/modules/**/*.routes.ts',
    message: 'a service never imports a route',
  },
  {
    target: './src/server/modules/**/*.routes.ts',
    from: './src/server/modules/**/*.repository.ts',
    message: "a route calls its service, never a repository (not even its own module's)",
  },
  {
    target: ['./src/server/jobs', './src/server/seed'],
    from: './src/server/modules/**/*.repository.ts',
    message: 'jobs and the demo seed call services, never a repository',
  },
  {
    target: ['./src/server/lib', './src/server/db'],
    from: './src/server/modules',
    message: 'server/lib and server/db are below the modules: they never import one',
  },
];

// Only repositories write SQL (STYLE.md): Kysely's values (sql, the query builders' helpers) are
// imported in repositories and src/server/db only; its types may be named anywhere.
const KYSELY_VALUES_MESSAGE =
  'only repositories (and src/server/db) write SQL: call a repository from a service; `import type` is fine.';
// The same rule seen from the call: a query started outside a repository. These method names are
// Kysely's own; `with` (Array.prototype.with too) only counts on a database or transaction object.
const QUERY_BUILDER_METHODS =
  'selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|withRecursive';
const QUERY_MESSAGE =
  "only repositories write SQL: move the query into the module's repository and call it from a service.";
const queryBuilderCalls = [
  {
    selector: `CallExpression > MemberExpression.callee[property.name=/^(${QUERY_BUILDER_METHODS})$/]`,
    message: QUERY_MESSAGE,
  },
  {
    selector:
      'CallExpression > MemberExpression.callee[property.name="with"]:matches([object.name=/^(db|trx|tx|kysely)$/], [object.property.name="db"])',
    message: QUERY_MESSAGE,
  },
  { selector: 'TaggedTemplateExpression[tag.name="sql"]', message: QUERY_MESSAGE },
];

// Web: src/web/lib/api-client.ts is the only fetch (JSON, ApiError, the server-side transport).
const FETCH_MESSAGE =
  'call the API through apiClient (src/web/lib/api-client.ts), the only fetch of the web app.';
const PROCESS_ENV = {
  object: 'process',
  property: 'env',
  message: 'Read configuration in src/server/config.ts only.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'tmp/**',
      '.tmp/**',
      '.react-router/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', 'scripts/*.mjs'],
          // The config and the scripts: nine small files, more than typescript-eslint's default of 8.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX, 'check-file': checkFile },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/ignore': ['node_modules'],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'check-file/filename-naming-convention': [
        'error',
        { 'src/**/*.{ts,tsx}': 'KEBAB_CASE', 'tests/**/*.ts': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { 'src/**/': 'KEBAB_CASE' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/common',
              from: ['./src/server', './src/web'],
              message: 'common is pure: no server or web code',
            },
            {
              target: './src/web',
              from: './src/server',
              message: 'web never imports server code: share a schema in src/common',
            },
            { target: './src/server', from: './src/web', message: 'server never imports web code' },
            {
              target: './src/web/components',
              from: ['./src/web/features', './src/web/app'],
              message: 'ui primitives do not depend on features or the app',
            },
            {
              target: './src/web/lib',
              from: ['./src/web/features', './src/web/app'],
              message: 'lib does not depend on features',
            },
            {
              target: './src/web/features',
              from: './src/web/app',
              message: 'features never import the app layer',
            },
            ...featureZones,
            ...moduleZones,
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/server/config.ts'],
    rules: { 'no-restricted-properties': ['error', PROCESS_ENV] },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: [
      // The queries themselves.
      'src/server/modules/**/*.repository.ts',
      // The database layer: client, dialect, migrator, locks, counters, leases, backup.
      'src/server/db/**',
      // Unit tests set up and inspect rows directly (tests/, bench/ and scripts/ are outside src/).
      'src/**/*.test.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', allowTypeImports: true, message: KYSELY_VALUES_MESSAGE }],
          patterns: [{ group: ['kysely/*'], allowTypeImports: true, message: KYSELY_VALUES_MESSAGE }],
        },
      ],
    },
  },
  {
    // Services, routes, their helpers, jobs, the seed, the composition root: no query of their own.
    files: ['src/server/**/*.ts'],
    ignores: [
      // The queries themselves.
      'src/server/modules/**/*.repository.ts',
      // The database layer: client, dialect, migrator, locks, counters, leases, backup.
      'src/server/db/**',
      // Unit tests set up and inspect rows directly (tests/, bench/ and scripts/ are outside src/).
      'src/server/**/*.test.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', ...queryBuilderCalls] },
  },
  {
    files: ['src/web/**/*.ts', 'src/web/**/*.tsx'],
    // The API client is the one place that calls fetch.
    ignores: ['src/web/lib/api-client.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: FETCH_MESSAGE }],
      // A local named fetch would hide the global from the rule above (and read as a raw fetch).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ':matches(VariableDeclarator > Identifier.id, :function > Identifier.params, FunctionDeclaration > Identifier.id, ObjectPattern > Property > Identifier.value, AssignmentPattern > Identifier.left, ImportSpecifier > Identifier.local)[name="fetch"]',
          message:
            'name it after what it asks (request, getX): a local `fetch` hides the global one from lint.',
        },
      ],
      // Repeats process.env: a config object's options replace, not add to, the earlier ones.
      'no-restricted-properties': [
        'error',
        PROCESS_ENV,
        ...['window', 'globalThis', 'self'].map((object) => ({
          object,
          property: 'fetch',
          message: FETCH_MESSAGE,
        })),
      ],
    },
  },
  {
    // An allow-list: common imports zod and itself, nothing else (no Node, no DOM, no database).
    files: ['src/common/**/*.ts'],
    ignores: ['src/common/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\.{1,2}/|#common/)',
              message: 'src/common imports only zod and itself.',
            },
          ],
        },
      ],
    },
  },
  {
    // Services decide and repositories query: neither knows about HTTP.
    files: ['src/server/modules/**/*.service.ts', 'src/server/modules/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^hono(/|$)|^@hono/',
              message: 'services and repositories never import Hono: routes translate HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      ...pluginQuery.configs.recommended.rules,
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['**/*.test.ts', 'tests/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
