import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_IMPORTS, FORBIDDEN_IMPORTS } from '../lint/boundary-fixtures';

/**
 * The boundaries of STYLE.md (import directions, only repositories write SQL, the web's one
 * fetch), checked by running the project's own ESLint configuration on fixtures: every forbidden
 * construct must be flagged by the rule that owns it, every allowed one not.
 */

const root = path.resolve(import.meta.dirname, '../..');
const BOUNDARY_RULES = new Set<string>([
  'import-x/no-restricted-paths',
  'no-restricted-imports',
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-properties',
  'no-restricted-syntax',
  'no-restricted-globals',
]);
/** Every path a fixture is linted at (a few are real files, linted here with the fixture's text). */
const FIXTURE_FILES = [...new Set([...FORBIDDEN_IMPORTS, ...ALLOWED_IMPORTS].map((f) => f.file))];

describe('lint boundaries', () => {
  let eslint: ESLint;
  beforeAll(() => {
    // The fixtures do not exist on disk (or not with this text), so the type-aware parser cannot
    // load them: lint them without type information (every boundary rule works on import paths and
    // syntax, not on types).
    eslint = new ESLint({
      cwd: root,
      overrideConfig: [{ files: FIXTURE_FILES, ...tseslint.configs.disableTypeChecked }],
    });
  });

  async function boundaryMessages(file: string, code: string) {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId));
  }

  it.each(FORBIDDEN_IMPORTS)('flags: $name', async ({ file, code, rule }) => {
    const messages = await boundaryMessages(file, code);
    expect(messages.map((m) => m.ruleId)).toContain(rule);
  });

  it.each(ALLOWED_IMPORTS)('allows: $name', async ({ file, code }) => {
    expect(await boundaryMessages(file, code)).toEqual([]);
  });
});
