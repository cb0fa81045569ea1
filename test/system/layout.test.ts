import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Folders, at any depth, that hold what tests share rather than the tests of one module. */
const BESIDE_THE_MIRROR = new Set(['helpers', 'fixtures']);

/** The test files under `testRoot` whose folder has no folder of the same path under `srcRoot`. */
async function unmirrored(testRoot: string, srcRoot: string): Promise<string[]> {
  const entries = await readdir(testRoot, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.relative(testRoot, path.join(entry.parentPath, entry.name)))
    .filter((file) => {
      const folders = path
        .dirname(file)
        .split(path.sep)
        .filter((part) => part !== '.');
      if (folders[0] === 'system' || folders.some((part) => BESIDE_THE_MIRROR.has(part))) return false;
      const mirror = path.join(srcRoot, ...folders);
      return !(existsSync(mirror) && statSync(mirror).isDirectory());
    })
    .sort();
}

test('layout.mirror: every test outside helpers/, fixtures/ and system/ sits in a folder that src/ has', async () => {
  assert.deepEqual(
    await unmirrored(path.join(ROOT, 'test'), path.join(ROOT, 'src')),
    [],
    'move each file listed to the test/ folder that mirrors what it tests (test/README.md, "Layout")',
  );
});

test('layout.check: a test in a folder src/ lacks is named; one at the top or in system/ is not', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'sound-catalog-layout-'));
  try {
    for (const folder of [
      'src/audio/decode',
      'test/audio/decode',
      'test/audio/helpers',
      'test/system/ci',
      'test/audo',
    ]) {
      await mkdir(path.join(root, folder), { recursive: true });
    }
    for (const file of [
      'test/top.test.ts',
      'test/audio/decode/wav.test.ts',
      'test/audio/helpers/not-a.test.ts',
      'test/system/ci/skips.test.ts',
      'test/audo/typo.test.ts',
    ]) {
      await writeFile(path.join(root, file), '');
    }
    assert.deepEqual(await unmirrored(path.join(root, 'test'), path.join(root, 'src')), [
      path.join('audo', 'typo.test.ts'),
    ]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
