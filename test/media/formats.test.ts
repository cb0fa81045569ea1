import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ffmpegEbur128, needsFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client.ts';
import { remaining, signedUrl } from './helpers.ts';

interface Case {
  query: string;
  extension: string;
  contentType: string;
  codec: string;
  rate: number;
  channels: number;
  /** ffprobe's bits_per_raw_sample (or bits_per_sample for WAV); null for lossy formats. */
  bits: number | null;
  /** Samples of one codec frame at `rate`: how far the decoded length may be from the stated duration. */
  frame: number;
}

const CASES: Case[] = [
  {
    query: 'format=wav&sample_rate=48000&channels=1&bit_depth=24',
    extension: 'wav',
    contentType: 'audio/wav',
    codec: 'pcm_s24le',
    rate: 48000,
    channels: 1,
    bits: 24,
    frame: 1,
  },
  {
    query: 'format=wav&sample_rate=22050&channels=2',
    extension: 'wav',
    contentType: 'audio/wav',
    codec: 'pcm_s16le',
    rate: 22050,
    channels: 2,
    bits: 16,
    frame: 1,
  },
  {
    query: 'format=flac&sample_rate=96000&channels=2&bit_depth=24',
    extension: 'flac',
    contentType: 'audio/flac',
    codec: 'flac',
    rate: 96000,
    channels: 2,
    bits: 24,
    frame: 4608,
  },
  {
    query: 'format=flac&sample_rate=16000&channels=1',
    extension: 'flac',
    contentType: 'audio/flac',
    codec: 'flac',
    rate: 16000,
    channels: 1,
    bits: 16,
    frame: 4608,
  },
  {
    query: 'format=ogg&sample_rate=32000&channels=1',
    extension: 'ogg',
    contentType: 'audio/ogg; codecs=vorbis',
    codec: 'vorbis',
    rate: 32000,
    channels: 1,
    bits: null,
    frame: 2048,
  },
  {
    query: 'format=ogg&channels=2',
    extension: 'ogg',
    contentType: 'audio/ogg; codecs=vorbis',
    codec: 'vorbis',
    rate: 44100,
    channels: 2,
    bits: null,
    frame: 2048,
  },
  {
    query: 'format=opus&channels=2',
    extension: 'opus',
    contentType: 'audio/ogg; codecs=opus',
    codec: 'opus',
    rate: 48000,
    channels: 2,
    bits: null,
    frame: 960,
  },
  {
    query: 'format=opus&sample_rate=48000&channels=1',
    extension: 'opus',
    contentType: 'audio/ogg; codecs=opus',
    codec: 'opus',
    rate: 48000,
    channels: 1,
    bits: null,
    frame: 960,
  },
  {
    query: 'sample_rate=22050&channels=1',
    extension: 'mp3',
    contentType: 'audio/mpeg',
    codec: 'mp3',
    rate: 22050,
    channels: 1,
    bits: null,
    frame: 1152,
  },
];

/** Game-ready formats (issue 30): WAV, FLAC, Ogg Vorbis and Opus renditions behind signed URLs, checked by ffmpeg. */
describe('formats (extension): renditions in the format, rate, channels and depth asked for', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let dir: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    // A stereo-or-mono 44.1 kHz MP3 made by the project's own encoder from a tone.
    id = (await addRealSound(server.services, tone(2, 0.2, 440), 'Format Tone')).id;
    dir = await mkdtemp(path.join(tmpdir(), 'formats-test-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const probe = (file: string) => {
    const out = execFileSync('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=codec_name,sample_rate,channels,bits_per_raw_sample,bits_per_sample',
      '-of',
      'json',
      file,
    ]).toString();
    return (JSON.parse(out) as { streams: Array<Record<string, string | number>> }).streams[0]!;
  };
  /** Samples per channel ffmpeg decodes (after Opus's pre-skip and the end trimmed by its granule). */
  const decodedFrames = (file: string, channels: number) =>
    execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-'], { maxBuffer: 1 << 28 }).length /
    4 /
    channels;

  for (const [index, format] of CASES.entries()) {
    for (const loudness of [undefined, -18]) {
      const query = `?${loudness === undefined ? '' : `loudness=${loudness}&`}${format.query}`;
      test(
        `formats.decode ${query}: ffmpeg decodes it at the asked rate, channels and ` +
          `depth, duration within a frame and loudness within 0.5 LU of the headers`,
        needsFfmpeg,
        async () => {
          const url = await signedUrl(server, key, id, index % 2 ? 'download' : 'stream', query);
          assert.match(
            new URL(url).pathname,
            new RegExp(`\\.${format.extension}$`),
            "the URL names the format's extension",
          );
          const response = await fetch(url);
          assert.equal(response.status, 200, url);
          assert.equal(response.headers.get('content-type'), format.contentType);
          if (index % 2) {
            assert.match(
              response.headers.get('content-disposition') ?? '',
              new RegExp(`filename="format-tone\\.${format.extension}"`),
            );
          }
          const file = path.join(dir, `${index}-${loudness ?? 'own'}.${format.extension}`);
          await writeFile(file, new Uint8Array(await response.arrayBuffer()));

          const stream = probe(file);
          assert.equal(stream.codec_name, format.codec);
          assert.equal(Number(stream.sample_rate), format.rate);
          assert.equal(Number(stream.channels), format.channels);
          if (format.bits !== null)
            assert.equal(Number(stream.bits_per_raw_sample ?? stream.bits_per_sample), format.bits);

          const stated = Number(response.headers.get('x-duration-seconds'));
          assert.ok(Math.abs(stated - 2) < 0.01, `stated duration ${stated}`);
          const frames = decodedFrames(file, format.channels);
          assert.ok(
            Math.abs(frames - stated * format.rate) <= format.frame,
            `decoded ${frames} samples, stated ${stated} s at ${format.rate} Hz`,
          );

          const statedLufs = Number(response.headers.get('x-integrated-lufs'));
          const statedPeak = Number(response.headers.get('x-true-peak-dbtp'));
          const measured = await ffmpegEbur128(file);
          assert.ok(
            Math.abs(measured.integratedLufs - statedLufs) <= 0.5,
            `ffmpeg ${measured.integratedLufs} LUFS, headers ${statedLufs}`,
          );
          assert.ok(
            Math.abs(measured.truePeakDb - statedPeak) <= 0.5,
            `ffmpeg true peak ${measured.truePeakDb}, headers ${statedPeak}`,
          );
          if (loudness !== undefined) {
            assert.ok(Math.abs(statedLufs - loudness) <= 0.5, `asked ${loudness}, stated ${statedLufs}`);
            assert.ok(statedPeak <= -1, `true peak ${statedPeak}`);
          }
        },
      );
    }
  }

  test(
    'formats.cached: a format rendition is made once and paid ' +
      'once (5 requests for mono); serving it again costs nothing',
    async () => {
      const url = await signedUrl(server, key, id, 'download', '?format=flac&channels=1&sample_rate=44100');
      const before = await remaining(server, key);
      const made = (await server.services.renditions.stats()).made;
      const first = await fetch(url);
      assert.equal(first.status, 200);
      const bytes = new Uint8Array(await first.arrayBuffer());
      const second = await fetch(url);
      assert.deepEqual(new Uint8Array(await second.arrayBuffer()), bytes);
      assert.equal((await server.services.renditions.stats()).made, made + 1, 'made once');
      // 10 per started 10 minutes at the default rate and depth, half for mono.
      assert.equal(await remaining(server, key), before - 1 - 5, 'paid once, 5 requests');
    },
  );

  test(
    'formats.canonical: defaults are not named, so one ' + "file has one URL; the extension must be the format's",
    async () => {
      assert.equal(
        await signedUrl(server, key, id, 'stream', '?format=mp3'),
        await signedUrl(server, key, id, 'stream', ''),
      );
      assert.doesNotMatch(
        await signedUrl(server, key, id, 'stream', '?format=mp3'),
        /account=/,
        "format=mp3 alone is the catalog's own file",
      );
      const wav16 = await signedUrl(server, key, id, 'stream', '?format=wav&bit_depth=16');
      assert.equal(wav16, await signedUrl(server, key, id, 'stream', '?format=wav'));
      assert.equal(
        await signedUrl(server, key, id, 'stream', '?format=opus&sample_rate=48000'),
        await signedUrl(server, key, id, 'stream', '?format=opus'),
      );
      assert.match(wav16, /[?&]format=wav&account=/);
      const renamed = wav16.replace('.wav?', '.mp3?');
      assert.equal((await fetch(renamed)).status, 403, 'another extension is another URL');
      const tampered = wav16.replace('format=wav', 'format=flac');
      assert.equal((await fetch(tampered)).status, 403, 'the format is signed');
    },
  );

  test('formats.invalid: a bad value or a combination no encoder makes is a 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['?format=opus&sample_rate=44100', 'sample_rate'],
      ['?format=mp3&bit_depth=24', 'bit_depth'],
      ['?bit_depth=24', 'bit_depth'],
      ['?format=ogg&bit_depth=16', 'bit_depth'],
      ['?format=mp3&sample_rate=96000', 'sample_rate'],
      ['?format=aiff', 'format'],
      ['?format=wav&sample_rate=7999', 'sample_rate'],
      ['?format=wav&sample_rate=192001', 'sample_rate'],
      ['?format=wav&sample_rate=', 'sample_rate'],
      ['?format=wav&channels=3', 'channels'],
      ['?format=flac&bit_depth=32', 'bit_depth'],
    ];
    for (const [query, param] of cases) {
      for (const what of ['stream', 'download']) {
        const response = await server.get(`/api/v1/sounds/${id}/${what}${query}`, { key });
        assert.equal(response.status, 400, `${what}${query}`);
        const body = (await response.json()) as { error: string; details: Array<{ param: string }> };
        assert.ok(
          body.details.some((detail) => detail.param === param),
          `${what}${query}: ${JSON.stringify(body)}`,
        );
      }
    }
  });

  test(
    'formats.openapi: the format parameters are declared on ' + 'both endpoints as extensions, and their 400 described',
    async () => {
      const response = await server.get('/openapi.json');
      const document = (await response.json()) as {
        info: { version: string };
        paths: Record<
          string,
          {
            get: {
              parameters: Array<{ name: string; schema: { 'x-extension'?: boolean } }>;
              responses: Record<string, unknown>;
            };
          }
        >;
      };
      assert.equal(document.info.version, '1.0.0');
      for (const what of ['stream', 'download']) {
        const operation = document.paths[`/api/v1/sounds/{id}/${what}`]!.get;
        for (const name of ['format', 'sample_rate', 'channels', 'bit_depth']) {
          assert.equal(
            operation.parameters.find((parameter) => parameter.name === name)?.schema['x-extension'],
            true,
            `${what}: ${name}`,
          );
        }
        const format = operation.parameters.find((parameter) => parameter.name === 'format') as unknown as {
          description: string;
        };
        assert.match(format.description, /answered 400/, `${what}: the 400 is described`);
      }
    },
  );

  test(
    'formats.mcp: get_download_url takes the format ' + 'arguments, and refuses a combination no encoder makes',
    async () => {
      const client = await connectMcp(server, key);
      try {
        const result = await callTool(client, 'get_download_url', {
          id,
          format: 'wav',
          sample_rate: 48000,
          channels: 1,
          bit_depth: 24,
        });
        const url = (result.structuredContent as { download_url: string }).download_url;
        assert.match(url, /\.wav\?d=download&format=wav&sample_rate=48000&channels=1&bit_depth=24&account=/);
        const refused = await callTool(client, 'get_stream_url', { id, format: 'opus', sample_rate: 44100 });
        assert.equal(refused.isError, true);
      } finally {
        await client.close();
      }
    },
  );

  test('formats.one-grammar: REST, MCP and signed URLs read format parameters alike, with one message', async () => {
    const client = await connectMcp(server, key);
    try {
      const cases: Array<[Record<string, string | number>, string, RegExp]> = [
        [{ format: 'aiff' }, 'format', /^must be one of mp3, wav, flac, ogg, opus$/],
        [{ format: 'wav', sample_rate: 7999 }, 'sample_rate', /^must be a whole number of Hz, 8000 to 192000$/],
        [{ format: 'wav', channels: 3 }, 'channels', /^must be 1 or 2$/],
        [{ format: 'flac', bit_depth: 32 }, 'bit_depth', /^must be 16 or 24$/],
        [{ format: 'opus', sample_rate: 44100 }, 'sample_rate', /^opus is made at 48000 Hz, not 44100$/],
      ];
      for (const [args, param, message] of cases) {
        const query = new URLSearchParams(Object.entries(args).map(([name, value]) => [name, String(value)]));
        const response = await server.get(`/api/v1/sounds/${id}/download?${query}`, { key });
        assert.equal(response.status, 400, String(query));
        const { details } = (await response.json()) as { details: Array<{ param: string; message: string }> };
        const named = details.some((detail) => detail.param === param && message.test(detail.message));
        assert.ok(named, `${query}: ${JSON.stringify(details)}`);
        const refused = await callTool(client, 'get_download_url', { id, ...args });
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), new RegExp(`${message.source.slice(1, -1)} at ${param}`));
      }
      // A number as an agent writes it, or as a query string does: one URL.
      const asked = { id, format: 'wav', sample_rate: '48000', channels: 1 };
      const fromMcp = await callTool(client, 'get_download_url', asked);
      const url = (fromMcp.structuredContent as { download_url: string }).download_url;
      assert.equal(url, await signedUrl(server, key, id, 'download', '?format=wav&sample_rate=48000&channels=1'));
      // The media route: a value in another spelling than the one signed, or a default named, is refused.
      const respelled = [
        url.replace('channels=1', 'channels=01'),
        url.replace('format=wav&', 'format=wav&bit_depth=16&'),
        url.replace('sample_rate=48000', 'sample_rate=48000.0'),
      ];
      for (const changed of respelled) {
        assert.notEqual(changed, url);
        const response = await fetch(changed);
        assert.equal(response.status, 403, changed);
        assert.deepEqual(await response.json(), { error: 'This link is not valid' });
      }
      assert.equal((await fetch(url, { method: 'HEAD' })).status, 200);
    } finally {
      await client.close();
    }
  });
});
