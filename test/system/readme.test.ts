import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { sine } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import { eventually } from '../helpers/eventually.ts';
import { backendEnv } from '../helpers/backend.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/sound-catalog.js');

/** The documents whose `sh` blocks are run, in order, against a live server, so they cannot drift. */
const DOCUMENTS = ['README.md', 'docs/api-guide.md'];

/** The README's and the API guide's `sh` blocks, run in order against a live server. */
describe('readme', () => {
  let server: TestServer;
  let workdir: string;
  let blocks: string[];
  let env: Record<string, string>;

  before(async () => {
    const texts = await Promise.all(DOCUMENTS.map((document) => readFile(path.join(ROOT, document), 'utf8')));
    blocks = texts
      .flatMap((text) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!))
      // Blocks that only set the reader's own key and address: the test provides those.
      .filter(
        (block) =>
          !block
            .trim()
            .split('\n')
            .every((line) => line.startsWith('export ')),
      );
    server = await startServer();
    await addSound(server.services, { name: 'Laser Zap', tags: ['laser'], duration: 0.4 });
    await addSound(server.services, { name: 'Coin Pickup', tags: ['coin'], sample: true });
    const { key } = await server.account('pro');
    workdir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-readme-'));
    await mkdir(path.join(workdir, 'my-sounds'));
    await writeFile(
      path.join(workdir, 'my-sounds', 'beep.wav'),
      encodeWavFloat32({ sampleRate: 44_100, channels: [sine(44_100, 880, -12, 22_050)] }),
    );
    // Ends each curl answer with a newline so that several answers are several lines.
    await writeFile(path.join(workdir, '.curlrc'), 'write-out = "\\n"\n');
    env = {
      ...process.env,
      ...backendEnv(server.dataDir),
      CURL_HOME: workdir,
      API_KEY: key,
      BASE_URL: server.url,
      SOUND_CATALOG_DATA: server.dataDir,
      SOUND_CATALOG_DEMO: '0',
    } as Record<string, string>;
  });
  after(async () => {
    await server.close();
    await rm(workdir, { recursive: true, force: true });
  });

  test(
    'readme.examples: every shell example of the README ' + 'and the API guide runs and every JSON it prints parses',
    async () => {
      assert.ok(blocks.length >= 11, `found ${blocks.length} runnable blocks`);
      for (const block of blocks) {
        // `npx sound-catalog` is this package's bin; the test runs it from a scratch folder.
        const script = block.replaceAll('npx sound-catalog', `node ${BIN}`);
        const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
          cwd: workdir,
          env,
          maxBuffer: 16 << 20,
        }).catch((error) => assert.fail(`block failed:\n${block}\n${error.stderr ?? error}`));
        for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
          assert.doesNotThrow(() => JSON.parse(line), `not JSON: ${line.slice(0, 200)}`);
        }
      }
      assert.ok((await stat(path.join(workdir, 'sound.mp3'))).size > 0, 'the download example saved the MP3');
      const pack = await readFile(path.join(workdir, 'pack.zip'));
      assert.equal(pack.subarray(0, 4).toString('latin1'), 'PK\x03\x04', 'the pack example saved a ZIP');
      const ingested = () =>
        server.services.catalog.search({
          words: ['beep'],
          categories: [],
          tags: [],
          sort: 'name',
          order: 'asc',
          page: 1,
          limit: 5,
        });
      await eventually(ingested, (page) => page.total === 1, 1000, 'the ingest example imported the folder');
    },
  );
});
