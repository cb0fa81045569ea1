#!/usr/bin/env node
// Runs every test file with node's test runner and ends with the plain line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { notAllowed } from './allowed-skips.js';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
// The service's tests, and each workspace package's (packages/*/test/).
const packages = readdirSync(path.join(root, 'packages'), { withFileTypes: true }).filter((entry) =>
  entry.isDirectory(),
);
const suites = [path.join(root, 'test'), ...packages.map((entry) => path.join(root, 'packages', entry.name, 'test'))];
const files = only.length > 0 ? only : suites.flatMap((folder) => findTests(folder));
const output = path.join(root, 'test-output');
mkdirSync(output, { recursive: true });
rmSync(path.join(output, 'counts.json'), { force: true });

// Tests that start the command line run the compiled service, as users do: build it from the
// sources as they are now.
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.js')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/count-reporter.js',
    '--test-reporter-destination=./test-output/counts.json',
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
);

let counts = { passed: 0, failed: 0, skipped: 0, skippedNames: [] };
try {
  counts = JSON.parse(readFileSync(path.join(root, 'test-output/counts.json'), 'utf8'));
} catch {
  counts.failed = Math.max(1, counts.failed);
}
// In CI a test passes by running: a skip fails the run unless it is allowed, with its reason.
const unallowedSkips =
  process.env.CI === 'true' ? notAllowed(counts.skippedNames, path.join(root, 'test/allowed-skips.json')) : [];
for (const name of unallowedSkips) console.log(`skipped in CI and not in test/allowed-skips.json: ${name}`);
const failed = (result.status === 0 ? counts.failed : Math.max(1, counts.failed)) + unallowedSkips.length;
const failures = (counts.failures ?? []).map((failure) => `failed: ${failure}\n`).join('');
writeFileSync(path.join(output, 'failures.txt'), failures);
process.stdout.write(failures);
const summary = `${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped`;
writeFileSync(path.join(output, 'summary.txt'), `${summary}\n`);
console.log(summary);
process.exit(result.status === 0 && failed === 0 ? 0 : 1);

function findTests(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}
