import { defineConfig } from 'vitest/config';
import { importAliases } from './vite.config';

/** `npm run test:deploy`: only the production recipe's test (tests/deploy), on its own. */
export default defineConfig({
  resolve: { alias: importAliases },
  test: {
    include: ['tests/deploy/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
    reporters: ['default'],
  },
});
