import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { notAllowed } from '../../../scripts/allowed-skips.js';

const root = path.resolve(import.meta.dirname, '../../..');

test('ci.skips: the count reporter names every skipped test, and only those on the allow-list pass in CI', async () => {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=./scripts/count-reporter.js',
      'test/system/ci/fixtures/skips.fixture.ts',
    ],
    { cwd: root, encoding: 'utf8', env: outsideThisRun() },
  );
  const counts = JSON.parse(run.stdout.trim());
  assert.equal(counts.passed, 1);
  assert.equal(counts.failed, 0);
  assert.deepEqual(counts.skippedNames.sort(), ['fixture.skipped', 'fixture.suite', 'fixture.todo']);

  const folder = await mkdtemp(path.join(tmpdir(), 'sc-skips-'));
  try {
    const list = path.join(folder, 'allowed.json');
    await writeFile(list, JSON.stringify({ allowed: [{ test: 'fixture.skipped', reason: 'a test of the list' }] }));
    assert.deepEqual(notAllowed(counts.skippedNames, list).sort(), ['fixture.suite', 'fixture.todo']);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('ci.allowed-skips: every allowed skip gives its reason', async () => {
  const { allowed } = (await import('../../allowed-skips.json', { with: { type: 'json' } })).default as {
    allowed: Array<Record<string, string>>;
  };
  assert.ok(allowed.length <= 5, 'the list stays short');
  for (const entry of allowed) assert.ok(entry.test && entry.reason && entry.reason.length > 20, JSON.stringify(entry));
});

/** This process's environment without the marker that makes a nested `node --test` report to this run. */
function outsideThisRun(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}
