import { afterEach, beforeEach, expect, vi } from 'vitest';

/** STYLE.md: a test that logs an unexpected console.error fails. */
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  expect(
    errors,
    `unexpected console.error: ${errors.map((e) => e.map(String).join(' ')).join('\n')}`,
  ).toEqual([]);
});
