import { defineConfig } from 'vitest/config';
import { importAliases } from './vite.config';

/** Integration and browser tests share one migrated database template and the demo photos. */
const APP_SETUP = ['tests/setup/global-setup.ts'];

export default defineConfig({
  resolve: { alias: importAliases },
  test: {
    // The production recipe's test runs on its own: `npm run test:deploy` (vitest.deploy.config.ts).
    exclude: ['**/node_modules/**', 'tests/deploy/**'],
    environment: 'node',
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker keeps the modules it loaded from one test file to the next instead of importing
    // them again for each (118 s of imports in a run became 14 s; the files without a browser ran
    // in 166 s instead of 282 s). Every test builds its own app and data (STYLE.md), and the one
    // global a test replaces (fetch, in api-client.test.ts) it puts back after each test.
    isolate: false,
    // Three files at once on two cores: a browser file mostly waits (on its pages, its server and
    // the network), so a third worker fills the gaps (decision 008: 309 -> 281 s, same CPU).
    maxWorkers: 3,
    reporters: ['default'],
    // `npx vitest run --project unit` runs the unit tests alone, without the database template
    // and photo set-up the others need (a unit test file then runs in well under a second).
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'] },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['tests/**/*.test.ts'], globalSetup: APP_SETUP },
      },
      {
        extends: true,
        test: { name: 'browser', include: ['tests/e2e/**/*.spec.ts'], globalSetup: APP_SETUP },
      },
    ],
  },
});
