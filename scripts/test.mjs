// `npm test`: builds the app when needed (browser tests run against the built app), runs the whole
// Vitest suite (unit, integration on PGlite and on PostgreSQL when TEST_DATABASE_URL is set,
// browser tests in Chromium), and ends with the line "N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild, root } from './ensure-build.mjs';

ensureBuild();
mkdirSync(path.join(root, 'test-results'), { recursive: true });
const report = path.join(root, 'test-results', 'vitest.json');
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];
const res = spawnSync('npx', args, { cwd: root, stdio: 'inherit' });

/** The first three lines of a failure's messages, indented under its name. */
const firstLines = (messages = []) =>
  messages.filter(Boolean).join('\n').split('\n').slice(0, 3).join('\n    ');

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  // Which tests failed, in a few lines each, also kept in test-results/failures.txt: .ci/run prints
  // it again after the build, where the end of a CI log (often all that is kept) shows it.
  for (const file of json.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const test of failedTests) {
      failures.push(
        `FAILED ${name} > ${test.fullName ?? test.title}\n    ${firstLines(test.failureMessages)}`,
      );
    }
    if (failedTests.length === 0 && file.status === 'failed') {
      failures.push(`FAILED ${name}\n    ${firstLines([file.message])}`);
    }
  }
  passed = json.numPassedTests ?? 0;
  // A file that failed without a failed test (an import or a hook that threw) counts as one failure.
  const brokenFiles = (json.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  failed = (json.numFailedTests ?? 0) + brokenFiles;
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  if (res.status !== 0 && failed === 0) failed = json.numFailedTestSuites || 1;
} else if (res.status !== 0) {
  failed = 1;
}
writeFileSync(path.join(root, 'test-results', 'failures.txt'), failures.map((f) => `${f}\n`).join(''));
if (failures.length > 0) console.log(`\n${failures.join('\n')}\n`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(res.status === 0 && failed === 0 ? 0 : 1);
