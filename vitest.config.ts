import { defineConfig } from 'vitest/config';
import { importAliases } from './vite.config';

export default defineConfig({
  resolve: { alias: importAliases },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts', 'tests/e2e/**/*.spec.ts'],
    // The production recipe's test runs on its own: `npm run test:deploy` (vitest.deploy.config.ts).
    exclude: ['**/node_modules/**', 'tests/deploy/**'],
    environment: 'node',
    globalSetup: ['tests/setup/global-setup.ts'],
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
  },
});
