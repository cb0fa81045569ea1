import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { encodeMp3 } from '../../src/audio/encode/index.ts';
import { hasFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { sine } from '../audio/helpers/signals.ts';
import { writeAiff } from '../audio/helpers/aiff.ts';
import { ascii, concat, writeWav } from '../audio/helpers/wav.ts';
import { runCli } from '../helpers/cli.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import {
  appendRiffChunk,
  bextChunk,
  commentFrame,
  id3Tag,
  infoList,
  ixmlDocument,
  textFrame,
  userTextFrame,
} from './helpers/tag-writers.ts';

const RATE = 44_100;
/** A different tone per file: the same content twice would be one sound. */
const tone = (hz: number) => [sine(RATE, hz, -14, RATE / 4)];

interface Reported {
  file: string;
  action: string;
  id?: string;
  metadata?: { name: string; description: string | null; tags: string[]; category: string | null };
  sources?: Record<string, string>;
  notes?: string[];
}

describe('ingest reads metadata from the files: tags, UCS names, sidecars, --verbose sources', () => {
  let folder: string;
  let server: TestServer;
  let env: Record<string, string>;
  let key: string;
  let dryRun: { files: Reported[] };
  let ingested: { added: number; updated: number; failed: unknown[]; files: Reported[] };
  const byName = (files: Reported[]) => new Map(files.map((reported) => [path.basename(reported.file), reported]));

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-tagged-'));
    const put = (name: string, bytes: Uint8Array | string) => writeFile(path.join(folder, name), bytes);
    await put(
      'bwf.wav',
      appendRiffChunk(
        writeWav({
          sampleRate: RATE,
          channels: tone(300),
          chunksBeforeData: [
            ['bext', bextChunk('Wooden barn door, slow creak')],
            [
              'LIST',
              infoList([
                ['INAM', 'Info Name'],
                ['IKEY', 'info'],
              ]),
            ],
          ],
        }),
        'iXML',
        ixmlDocument({ FXNAME: 'Barn Door Creak', KEYWORDS: 'door, creak, barn', CATID: 'DOORWood' }),
      ),
    );
    await put(
      'tagged.mp3',
      concat([
        id3Tag(
          [
            ['TIT2', textFrame('Laser Zap')],
            ['COMM', commentFrame('A short retro laser')],
            ['TCON', textFrame('Sound Effects')],
            ['TXXX', userTextFrame('KEYWORDS', 'laser, zap, retro')],
          ],
          4,
        ),
        await encodeMp3({ sampleRate: RATE, channels: tone(900) }),
      ]),
    );
    await put(
      'annotated.aiff',
      writeAiff({
        sampleRate: RATE,
        channels: tone(500),
        chunksBeforeSound: [
          ['NAME', ascii('Wind Chimes')],
          ['ANNO', ascii('Porch chimes in a light breeze')],
        ],
      }),
    );
    await put('DOORWood_Slam Heavy_ACME_Mic1.wav', writeWav({ sampleRate: RATE, channels: tone(350) }));
    await put(
      'AMBForst_Night Crickets_JD_Field.wav',
      writeWav({
        sampleRate: RATE,
        channels: tone(700),
        chunksBeforeData: [
          [
            'LIST',
            infoList([
              ['ICMT', 'Crickets at dusk'],
              ['IKEY', 'dusk'],
            ]),
          ],
        ],
      }),
    );
    await put(
      'AMBForst_Night Crickets_JD_Field.json',
      JSON.stringify({ name: 'Cricket Chorus', tags: ['night', 'insects'] }),
    );
    await put(
      'hostile-ixml.wav',
      appendRiffChunk(
        writeWav({
          sampleRate: RATE,
          channels: tone(1100),
          chunksBeforeData: [['LIST', concat([ascii('INFOINAM'), Uint8Array.of(0xff, 0xff, 0, 0), ascii('x')])]],
        }),
        'iXML',
        ascii('<html>not iXML</html>'),
      ),
    );
    await put(
      'hostile-id3.mp3',
      concat([
        id3Tag([['TIT2', textFrame('Never Read'), 900_000_000]], 3),
        await encodeMp3({ sampleRate: RATE, channels: tone(1300) }),
      ]),
    );
    if (hasFfmpeg) {
      const metadata = [
        '-metadata',
        'TITLE=Forest Stream',
        '-metadata',
        'DESCRIPTION=Water over stones',
        '-metadata',
        'GENRE=Ambience',
        '-metadata',
        'KEYWORDS=water, stream',
      ];
      await put('source.wav', writeWav({ sampleRate: RATE, channels: tone(800) }));
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-i',
        path.join(folder, 'source.wav'),
        ...metadata,
        path.join(folder, 'commented.flac'),
      ]);
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-i',
        path.join(folder, 'source.wav'),
        '-af',
        'volume=0.5',
        '-c:a',
        'libvorbis',
        ...metadata,
        path.join(folder, 'commented.ogg'),
      ]);
      await rm(path.join(folder, 'source.wav'));
    }
    server = await startServer();
    env = { SOUND_CATALOG_DATA: server.dataDir, SOUND_CATALOG_DEMO: '0' };
    ({ key } = await server.account('pro'));
    const plan = await runCli(['ingest', '--dry-run', folder, '--json', '--verbose'], env);
    assert.equal(plan.status, 0, plan.stderr);
    dryRun = plan.json;
    const run = await runCli(['ingest', folder, '--json', '--verbose'], env);
    assert.equal(run.status, 0, run.stderr);
    ingested = run.json;
  });
  after(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  const fileCount = () => (hasFfmpeg ? 9 : 7);

  test('tagged.summary: every file goes in, hostile tags included', () => {
    assert.deepEqual(
      { added: ingested.added, updated: ingested.updated, failed: ingested.failed },
      { added: fileCount(), updated: 0, failed: [] },
    );
    assert.equal(ingested.files.length, fileCount());
    assert.ok(ingested.files.every((reported) => reported.action === 'added' && typeof reported.id === 'string'));
  });

  test('tagged.sources: --verbose names the source of each field, and the dry run shows the same', () => {
    const files = byName(ingested.files);
    const expected: Record<string, Record<string, string>> = {
      'bwf.wav': {
        name: 'ixml',
        description: 'bext',
        tags: 'ixml',
        category: 'ixml',
        license: 'default',
        sample: 'default',
      },
      'tagged.mp3': {
        name: 'id3',
        description: 'id3',
        tags: 'id3',
        category: 'id3',
        license: 'default',
        sample: 'default',
      },
      'annotated.aiff': {
        name: 'aiff',
        description: 'aiff',
        tags: 'default',
        category: 'default',
        license: 'default',
        sample: 'default',
      },
      'DOORWood_Slam Heavy_ACME_Mic1.wav': {
        name: 'ucs',
        description: 'default',
        tags: 'ucs',
        category: 'ucs',
        license: 'default',
        sample: 'default',
      },
      'AMBForst_Night Crickets_JD_Field.wav': {
        name: 'sidecar',
        description: 'info',
        tags: 'sidecar',
        category: 'ucs',
        license: 'default',
        sample: 'default',
      },
      'hostile-ixml.wav': {
        name: 'file name',
        description: 'default',
        tags: 'default',
        category: 'default',
        license: 'default',
        sample: 'default',
      },
      // music-metadata keeps the text of a frame that claims more bytes than its tag holds (with a note).
      'hostile-id3.mp3': {
        name: 'id3',
        description: 'default',
        tags: 'default',
        category: 'default',
        license: 'default',
        sample: 'default',
      },
      ...(hasFfmpeg && {
        'commented.flac': {
          name: 'vorbis',
          description: 'vorbis',
          tags: 'vorbis',
          category: 'vorbis',
          license: 'default',
          sample: 'default',
        },
        'commented.ogg': {
          name: 'vorbis',
          description: 'vorbis',
          tags: 'vorbis',
          category: 'vorbis',
          license: 'default',
          sample: 'default',
        },
      }),
    };
    for (const [name, sources] of Object.entries(expected)) assert.deepEqual(files.get(name)?.sources, sources, name);
    const planned = byName(dryRun.files);
    for (const [name, reported] of files) {
      assert.deepEqual(planned.get(name)?.sources, reported.sources, `dry run sources of ${name}`);
      assert.deepEqual(planned.get(name)?.metadata, reported.metadata, `dry run metadata of ${name}`);
      assert.equal(planned.get(name)?.id, reported.id, `dry run id of ${name}`);
    }
  });

  test('tagged.hostile: ignored tags are reported as notes on the file', () => {
    const files = byName(ingested.files);
    assert.match(
      files.get('hostile-ixml.wav')!.notes!.join('\n'),
      /iXML chunk ignored: iXML chunk holds no BWFXML document/,
    );
    assert.match(
      files.get('hostile-ixml.wav')!.notes!.join('\n'),
      /WAV tags ignored: one runs past the end of the file/,
    );
    assert.match(files.get('hostile-id3.mp3')!.notes!.join('\n'), /ID3 tag damaged: Illegal ID3v2 tag length/);
    assert.equal(files.get('bwf.wav')!.notes, undefined);
  });

  test(
    'tagged.catalog: the stored sounds carry the names, ' + 'descriptions, tags and categories read from the files',
    async () => {
      const sound = async (q: string) => {
        const { data } = await (await server.get(`/api/v1/sounds?q=${encodeURIComponent(q)}&limit=1`, { key })).json();
        assert.equal(data.length, 1, q);
        return data[0] as { name: string; description: string | null; tags: string[]; category: string | null };
      };
      const pick = ({
        name,
        description,
        tags,
        category,
      }: {
        name: string;
        description: string | null;
        tags: string[];
        category: string | null;
      }) => ({ name, description, tags, category });
      assert.deepEqual(pick(await sound('barn door creak')), {
        name: 'Barn Door Creak',
        description: 'Wooden barn door, slow creak',
        tags: ['door', 'creak', 'barn', 'doors', 'wood'],
        category: 'SFX',
      });
      assert.deepEqual(pick(await sound('laser zap')), {
        name: 'Laser Zap',
        description: 'A short retro laser',
        tags: ['laser', 'zap', 'retro', 'sound effects'],
        category: 'SFX',
      });
      assert.deepEqual(pick(await sound('wind chimes')), {
        name: 'Wind Chimes',
        description: 'Porch chimes in a light breeze',
        tags: [],
        category: null,
      });
      assert.deepEqual(pick(await sound('slam heavy')), {
        name: 'Slam Heavy',
        description: null,
        tags: ['doors', 'wood'],
        category: 'SFX',
      });
      assert.deepEqual(pick(await sound('cricket chorus')), {
        name: 'Cricket Chorus',
        description: 'Crickets at dusk',
        tags: ['night', 'insects'],
        category: 'AMBIENT',
      });
      assert.equal((await sound('never read')).name, 'Never Read');
      if (hasFfmpeg) {
        const { data } = await (await server.get('/api/v1/sounds?q=forest%20stream', { key })).json();
        assert.equal(data.length, 2);
        for (const stream of data)
          assert.deepEqual(pick(stream), {
            name: 'Forest Stream',
            description: 'Water over stones',
            tags: ['water', 'stream', 'ambience'],
            category: 'AMBIENT',
          });
      }
    },
  );

  test(
    'tagged.output: without --verbose the output is exactly ' + 'as before; the text form lists sources and notes',
    async () => {
      const quiet = await runCli(['ingest', folder, '--json'], env);
      assert.equal(quiet.status, 0, quiet.stderr);
      assert.deepEqual(quiet.json, { added: 0, updated: fileCount(), failed: [], skipped: [] });
      const plan = await runCli(['ingest', '--dry-run', folder, '--json'], env);
      assert.ok(plan.json.files.every((planned: object) => !('sources' in planned) && !('notes' in planned)));

      const text = await runCli(
        ['ingest', path.join(folder, 'bwf.wav'), path.join(folder, 'hostile-id3.mp3'), '--verbose'],
        env,
      );
      assert.equal(text.status, 0, text.stderr);
      const lines = text.stdout.trim().split('\n');
      assert.equal(lines[0], 'added 0, updated 2, failed 0');
      assert.ok(
        lines.includes(
          '        sources: name ixml, description bext, tags ixml, category ixml, license default, sample default',
        ),
        text.stdout,
      );
      assert.ok(
        lines.some((line) => /^ {8}note: ID3 tag damaged: Illegal ID3v2 tag length/.test(line)),
        text.stdout,
      );
    },
  );
});
