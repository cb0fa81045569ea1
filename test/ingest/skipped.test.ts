/**
 * Ingest never skips silently (issue 18): every file given or found is added, updated, listed in
 * `failed` with its reason, or listed in `skipped` when it is clearly not audio. A sidecar NAME.json
 * is read with its audio file and is not listed on its own.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sine } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import { runCli } from '../helpers/cli.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const RATE = 44_100;
const tone = (hz: number) => encodeWavFloat32({ sampleRate: RATE, channels: [sine(RATE, hz, -20, RATE / 4)] });
/** Root reads a file whatever its mode bits, so a locked file is only unreadable for others. */
const asRoot = process.getuid?.() === 0;

interface Listed {
  file: string;
  reason: string;
}

describe('ingest.skipped: every file is accounted for', () => {
  let folder: string;
  let server: TestServer;
  let env: Record<string, string>;
  const file = (name: string) => path.join(folder, name);
  /** Files expected in `failed`, each with its reason. */
  const failed: Record<string, RegExp> = {
    'garbage.wav': /^not a recognised audio file \(named \.wav but has no RIFF\/WAVE header\)$/,
    'empty.aiff': /^empty file$/,
    'song.m4a': /^unsupported audio format: MP4\/M4A$/,
    'dangling.wav': /^broken link: no such file or folder$/,
    'loop.wav': /^broken link: too many levels of links$/,
    ...(asRoot ? {} : { 'locked.wav': /permission denied|EACCES/ }),
  };
  /** Files expected in `skipped`, each with its reason. */
  const skipped: Record<string, RegExp> = {
    'notes.txt': /^not audio \(\.txt, and no audio header\)$/,
    README: /^not audio \(no extension, and no audio header\)$/,
    '.DS_Store': /^hidden file$/,
    '._kick.wav': /^hidden file$/,
    '.git': /^hidden folder \(not searched\)$/,
    'orphan.json': /^not audio \(\.json: a sidecar is read only with an audio file of the same name\)$/,
    'pipe.wav': /^not a regular file$/,
    'folder-link': /^link to a folder \(not followed\)$/,
  };
  /**
   * Files expected to go in: kick.wav (with kick.json), a WAV named .dat, one in a subfolder, and the locked one for
   * root.
   */
  const added = ['kick.wav', 'renamed.dat', path.join('sub', 'deep.wav'), ...(asRoot ? ['locked.wav'] : [])];

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-skipped-'));
    await mkdir(file('sub'));
    await mkdir(file('.git'));
    await writeFile(file('kick.wav'), tone(200));
    await writeFile(file('kick.json'), JSON.stringify({ name: 'Big Kick', tags: ['kick'] }));
    await writeFile(file('renamed.dat'), tone(300));
    await writeFile(file(path.join('sub', 'deep.wav')), tone(400));
    await writeFile(file('locked.wav'), tone(500));
    await chmod(file('locked.wav'), 0o000);
    await writeFile(file('garbage.wav'), new Uint8Array(5000).fill(0x5a));
    await writeFile(file('empty.aiff'), new Uint8Array(0));
    await writeFile(
      file('song.m4a'),
      Uint8Array.from([0, 0, 0, 0x20, ...Buffer.from('ftypM4A '), ...new Uint8Array(40)]),
    );
    await symlink(file('nowhere.wav'), file('dangling.wav'));
    await symlink(file('loop.wav'), file('loop.wav'));
    await writeFile(file('notes.txt'), 'not audio');
    await writeFile(file('README'), 'read me');
    await writeFile(file('.DS_Store'), new Uint8Array(64));
    await writeFile(file('._kick.wav'), new Uint8Array(4096).fill(1));
    await writeFile(file(path.join('.git', 'inside.wav')), tone(600));
    await writeFile(file('orphan.json'), JSON.stringify({ name: 'Nobody' }));
    execFileSync('mkfifo', [file('pipe.wav')]);
    await symlink(file('sub'), file('folder-link'));
    server = await startServer();
    env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
  });
  after(async () => {
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** The listed entries by file name relative to the folder, checked against the expected reasons. */
  const assertListed = (listed: Listed[], expected: Record<string, RegExp>, what: string) => {
    const byName = Object.fromEntries(listed.map(({ file: f, reason }) => [path.relative(folder, f), reason]));
    assert.deepEqual(Object.keys(byName).sort(), Object.keys(expected).sort(), `${what}: ${JSON.stringify(listed)}`);
    for (const [name, reason] of Object.entries(expected)) assert.match(byName[name]!, reason, `${what} ${name}`);
  };

  test('ingest.skipped: the dry run lists what it would add, refuse and skip, each file once', async () => {
    const run = await runCli(['ingest', '--dry-run', folder, '--json'], env);
    assert.equal(run.status, 0, run.stderr);
    const plan = run.json;
    assert.equal(plan.added, added.length);
    assertListed(plan.failed, failed, 'failed');
    assertListed(plan.skipped, skipped, 'skipped');
    const actions = Object.fromEntries(
      plan.files.map((f: { file: string; action: string }) => [path.relative(folder, f.file), f.action]),
    );
    assert.deepEqual(
      Object.keys(actions).sort(),
      [...added, ...Object.keys(failed), ...Object.keys(skipped)].sort(),
      'every file once',
    );
    for (const name of added) assert.equal(actions[name], 'add', name);
    for (const name of Object.keys(skipped)) assert.equal(actions[name], 'skip', name);
    const kick = plan.files.find((f: { file: string }) => f.file === file('kick.wav'));
    assert.equal(kick.metadata.name, 'Big Kick', 'the sidecar is read with its audio');

    const text = await runCli(['ingest', '--dry-run', folder], env);
    assert.match(text.stdout, new RegExp(`^skip {4}${escapeText(file('notes.txt'))}: not audio`, 'm'));
    assert.match(
      text.stdout.trim().split('\n').at(-1)!,
      new RegExp(
        `^would add ${added.length}, update 0, refuse ${Object.keys(failed).length}, ` +
          `skip ${Object.keys(skipped).length} \\(dry run`,
      ),
    );
  });

  test('ingest.skipped: ingest --json adds the audio and lists every other file in failed or skipped', async () => {
    const run = await runCli(['ingest', folder, '--json'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.json.added, added.length);
    assert.equal(run.json.updated, 0);
    assertListed(run.json.failed, failed, 'failed');
    assertListed(run.json.skipped, skipped, 'skipped');
    const { data } = await (
      await server.get('/api/v1/sounds?q=kick', { key: (await server.account('pro')).key })
    ).json();
    assert.deepEqual(
      data.map((s: { name: string }) => s.name),
      ['Big Kick'],
    );
  });

  test(
    'ingest.skipped: files named on the command line are ' + 'sorted the same way, and the text output lists them',
    async () => {
      const run = await runCli(
        ['ingest', file('notes.txt'), file('garbage.wav'), file('kick.wav'), file('kick.json')],
        env,
      );
      assert.equal(run.status, 0, run.stderr);
      const lines = run.stdout.trim().split('\n');
      assert.equal(lines[0], 'added 0, updated 1, failed 1, skipped 1');
      assert.match(
        run.stdout,
        new RegExp(`^ {2}failed: ${escapeText(file('garbage.wav'))}: not a recognised audio file`, 'm'),
      );
      assert.match(run.stdout, new RegExp(`^ {2}skipped: ${escapeText(file('notes.txt'))}: not audio \\(\\.txt`, 'm'));
      assert.ok(!run.stdout.includes('kick.json'), 'the sidecar given beside its audio is read with it, not listed');
    },
  );
});

function escapeText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
