import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

/** `npm run test:deploy`: only the production recipe's test (tests/deploy), one file at a time. */
export default mergeConfig(
  base,
  defineConfig({
    test: { include: ['tests/deploy/**/*.test.ts'], exclude: [], maxWorkers: 1 },
  }),
);
