import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { needsFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { addSound } from '../helpers/sounds.ts';

const run = promisify(execFile);
type PackBody = { data: { download_url: string; sounds: number; estimated_bytes: number } };
type ManifestRow = {
  id: string;
  file: string;
  format: string;
  sample_rate: number | null;
  channels: number | null;
  duration: number;
  integrated_lufs: number | null;
  true_peak_db: number | null;
  sha256: string;
  bytes: number;
};

/** What ffprobe reads in a file's first audio stream. */
async function probe(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=codec_name,sample_rate,channels,bits_per_sample,bits_per_raw_sample,sample_fmt',
    '-of',
    'json',
    file,
  ]);
  return (JSON.parse(stdout) as { streams: Array<Record<string, string | number>> }).streams[0]!;
}

/** Decodes the whole file; ffmpeg's stderr at level error must be empty. */
async function decodes(file: string): Promise<string> {
  const { stderr } = await run('ffmpeg', ['-v', 'error', '-nostdin', '-i', file, '-f', 'null', '-']);
  return stderr;
}

/**
 * Each format a pack can be asked in: the query, what ffprobe must read in every entry, and how
 * far the estimate may be from the ZIP (lossless sizes are arithmetic; lossy ones follow the encoder), and
 * each rendition's price: 10 per started 10 minutes, x0.5 up to 24 kHz, x0.5 mono, x1.5 for 24 bits, rounded up.
 */
const CASES = [
  {
    format: 'wav',
    query: 'format=wav&sample_rate=22050&channels=1&bit_depth=24',
    codec: 'pcm_s24le',
    rate: 22050,
    channels: 1,
    depth: 24,
    slack: 0.1,
    price: 4,
  },
  {
    format: 'flac',
    query: 'format=flac&sample_rate=48000&channels=2',
    codec: 'flac',
    rate: 48000,
    channels: 2,
    depth: 16,
    slack: 0.6,
    price: 10,
  },
  {
    format: 'ogg',
    query: 'format=ogg&sample_rate=32000&channels=1&loudness=-20',
    codec: 'vorbis',
    rate: 32000,
    channels: 1,
    depth: null,
    slack: 0.6,
    price: 5,
  },
  {
    format: 'opus',
    query: 'format=opus&channels=2&trim=true',
    codec: 'opus',
    rate: 48000,
    channels: 2,
    depth: null,
    slack: 0.6,
    price: 10,
  },
] as const;

describe(
  'packs.formats: a pack in WAV, FLAC, Ogg Vorbis or Opus, ' +
    'every file decoded by ffmpeg at the rate and channels asked',
  () => {
    let server: TestServer;
    const ids: string[] = [];

    before(async () => {
      server = await startServer();
      // Real MP3s: renditions are made from them.
      for (const [index, name] of ['Laser Zap', 'Wind Gust'].entries()) {
        const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('pack-formats', index).audio);
        ids.push((await addSound(server.services, { name, bytes: mp3, ...measurements })).id);
      }
    });
    after(() => server.close());

    for (const wanted of CASES) {
      test(
        `packs.formats: ${wanted.query}: files named .${wanted.format}, decoding at ${wanted.rate} ` +
          `Hz, ${wanted.channels} channel(s); manifest rows state them and hash the bytes`,
        needsFfmpeg,
        async () => {
          const { key } = await server.account('pro');
          const response = await server.get(`/api/v1/packs?ids=${ids.join(',')}&${wanted.query}`, { key });
          assert.equal(response.status, 200, await response.clone().text());
          // Two sounds: 2 requests; the renditions are paid when the URL is fetched.
          assert.equal(response.headers.get('x-ratelimit-remaining'), String(2500 - 2));
          const { data } = (await response.json()) as PackBody;
          const url = new URL(data.download_url);
          for (const param of new URLSearchParams(wanted.query))
            assert.equal(url.searchParams.get(param[0]), param[1], `the signed URL carries ${param[0]}`);

          const zip = await fetch(data.download_url);
          assert.equal(zip.status, 200);
          const bytes = Buffer.from(await zip.arrayBuffer());
          const relative = Math.abs(data.estimated_bytes - bytes.length) / bytes.length;
          assert.ok(relative <= wanted.slack, `estimated ${data.estimated_bytes} for ${bytes.length} bytes`);
          const folder = path.join(server.dataDir, `pack-${wanted.format}`);
          const file = `${folder}.zip`;
          await writeFile(file, bytes);
          assert.match((await run('unzip', ['-t', file])).stdout, /No errors detected/);
          await run('unzip', ['-q', '-d', folder, file]);

          const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as {
            sounds: ManifestRow[];
          };
          assert.deepEqual(
            manifest.sounds.map((row) => row.id),
            ids,
          );
          for (const row of manifest.sounds) {
            assert.ok(row.file.endsWith(`-${row.id}.${wanted.format}`), row.file);
            const entry = path.join(folder, row.file);
            const delivered = await readFile(entry);
            assert.equal(
              row.sha256,
              createHash('sha256').update(delivered).digest('hex'),
              `${row.file}: SHA-256 of the bytes delivered`,
            );
            assert.equal(row.bytes, delivered.length);
            assert.equal(await decodes(entry), '', `${row.file} decodes without error`);
            const stream = await probe(entry);
            assert.equal(stream.codec_name, wanted.codec, row.file);
            assert.equal(Number(stream.sample_rate), wanted.rate, row.file);
            assert.equal(Number(stream.channels), wanted.channels, row.file);
            if (wanted.depth !== null)
              assert.equal(Number(stream.bits_per_sample || stream.bits_per_raw_sample), wanted.depth, row.file);
            assert.equal(row.format, wanted.format);
            assert.equal(row.sample_rate, wanted.rate, `${row.file}: the manifest's rate`);
            assert.equal(row.channels, wanted.channels, `${row.file}: the manifest's channels`);
            assert.equal(typeof row.integrated_lufs, 'number');
            assert.equal(typeof row.true_peak_db, 'number');
            if (wanted.query.includes('loudness=-20'))
              assert.ok(Math.abs(row.integrated_lufs! + 20) <= 0.5, `${row.file}: ${row.integrated_lufs} LUFS`);
          }

          // The same pack again: one request per sound; fetching it makes nothing and costs nothing, every rendition
          // being stored.
          const again = await server.get(`/api/v1/packs?ids=${ids.join(',')}&${wanted.query}`, { key });
          assert.equal(again.status, 200);
          assert.equal(again.headers.get('x-ratelimit-remaining'), String(2500 - 2 - 2 * wanted.price - 2));
          const refetched = await fetch(((await again.json()) as PackBody).data.download_url);
          assert.equal(refetched.status, 200);
          await refetched.arrayBuffer();
          const after = await server.get('/api/v1/sounds/popular?limit=1', { key });
          assert.equal(after.headers.get('x-ratelimit-remaining'), String(2500 - 2 - 2 * wanted.price - 2 - 1));
        },
      );
    }

    test(
      'packs.formats.errors: a bad format parameter or combination ' +
        'is a 400 naming the parameter, and costs only the call',
      async () => {
        const { key } = await server.account('pro');
        const refused = [
          ['format=aiff', 'format'],
          ['format=opus&sample_rate=44100', 'sample_rate'],
          ['format=ogg&bit_depth=24', 'bit_depth'],
          ['format=mp3&sample_rate=96000', 'sample_rate'],
          ['format=wav&sample_rate=7999', 'sample_rate'],
          ['format=wav&sample_rate=', 'sample_rate'],
          ['format=wav&channels=3', 'channels'],
          ['format=flac&bit_depth=20', 'bit_depth'],
        ] as const;
        for (const [query, param] of refused) {
          const response = await server.get(`/api/v1/packs?ids=${ids.join(',')}&${query}`, { key });
          assert.equal(response.status, 400, query);
          const body = (await response.json()) as { error: string; details: Array<{ param: string; message: string }> };
          assert.deepEqual(
            [...new Set(body.details.map((detail) => detail.param))],
            [param],
            `${query}: ${body.error}`,
          );
          assert.match(body.error, new RegExp(param));
        }
        const after = await server.get('/api/v1/sounds/popular?limit=1', { key });
        assert.equal(after.headers.get('x-ratelimit-remaining'), String(2500 - refused.length - 1));
      },
    );

    test(
      'packs.formats.security: the format is signed; a ' + 'pack URL with its format changed or dropped is 403',
      async () => {
        const { key } = await server.account('pro');
        const { data } = (await (
          await server.get(`/api/v1/packs?ids=${ids[0]}&format=wav&channels=1`, { key })
        ).json()) as PackBody;
        assert.ok(data.download_url.includes('&format=wav&channels=1&account='), data.download_url);
        assert.equal((await fetch(data.download_url.replace('format=wav', 'format=flac'))).status, 403);
        assert.equal((await fetch(data.download_url.replace('&channels=1', ''))).status, 403);
        assert.equal((await fetch(data.download_url.replace('&format=wav', ''))).status, 403);
        // Reordered, the same parameters are no longer the query that was signed (the canonical-URL rule).
        assert.equal(
          (await fetch(data.download_url.replace('format=wav&channels=1', 'channels=1&format=wav'))).status,
          403,
        );
        assert.equal((await fetch(data.download_url)).status, 200);
      },
    );
  },
);
