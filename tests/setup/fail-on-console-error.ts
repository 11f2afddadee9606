import { afterEach, beforeEach, expect, vi } from 'vitest';
import { drainServerErrors } from '../helpers/server-errors';

/**
 * STYLE.md: a test that logs an unexpected console.error fails; so does one whose server (from
 * startTestApp) logged at error level, unless the test took those lines (takeServerErrors).
 */
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  // Server errors logged between tests (another suite's teardown dropping its database) are not
  // this test's.
  drainServerErrors();
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
  const serverErrors = drainServerErrors();
  expect(serverErrors, `unexpected server error log:\n${serverErrors.join('\n')}`).toEqual([]);
});
