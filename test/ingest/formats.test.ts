/**
 * The audio that sound libraries ship goes in (issue 18): WAV at 8/16/24/32-bit integer and
 * 32/64-bit float, plain and WAVE_FORMAT_EXTENSIBLE with channel masks; AIFF at 8 to 32 bits and
 * AIFF-C as NONE, twos, sowt, in24, in32, raw, fl32 and fl64; mono to 5.1; 8 to 192 kHz. Each file goes through the
 * real ingest pipeline (worker threads, real database); each test then reads its sound through the
 * HTTP API, checks duration and loudness, and downloads and decodes the MP3 the catalog delivers.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeAudio } from '../../src/audio/analyze/index.ts';
import { decodeAudio } from '../../src/audio/decode/index.ts';
import { ingestPaths, type IngestResult } from '../../src/ingest/pipeline.ts';
import { writeAiff } from '../audio/helpers/aiff.ts';
import { hasFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { channelTones } from '../audio/helpers/signals.ts';
import { encodeWavFloat32, writeWav } from '../audio/helpers/wav.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

interface FormatCase {
  /** The file name, which says what it is. */
  file: string;
  sampleRate: number;
  channelCount: number;
  /** The rate of the MP3 the catalog delivers (mp3SampleRate's rule, written out). */
  mp3Rate: number;
  /** The file's bytes, from the source channels; or made by ffmpeg from a float WAV of them. */
  bytes?: (channels: Float32Array[]) => Uint8Array;
  ffmpeg?: string[];
}

const wav =
  (bits: 8 | 16 | 24 | 32, encoding: 'pcm' | 'float' = 'pcm') =>
  (channels: Float32Array[], sampleRate: number) =>
    writeWav({ sampleRate, channels, bits, encoding });
const wavExtensible =
  (bits: 16 | 24 | 32, encoding: 'pcm' | 'float', mask: number) => (channels: Float32Array[], sampleRate: number) =>
    writeWav({ sampleRate, channels, bits, encoding, extensible: true, channelMask: mask });
const aiff = (bits: number, compression?: string) => (channels: Float32Array[], sampleRate: number) =>
  writeAiff({ sampleRate, channels, bits, ...(compression && { compression }) });

/** [file, rate, channels, MP3 rate, writer]: one test each. */
const WRITTEN: Array<[string, number, number, number, (channels: Float32Array[], sampleRate: number) => Uint8Array]> = [
  ['wav-u8-mono-22050.wav', 22_050, 1, 22_050, wav(8)],
  ['wav-s16-stereo-44100.wav', 44_100, 2, 44_100, wav(16)],
  ['wav-s24-stereo-48000.wav', 48_000, 2, 48_000, wav(24)],
  ['wav-s32-stereo-96000.wav', 96_000, 2, 48_000, wav(32)],
  ['wav-f32-stereo-48000.wav', 48_000, 2, 48_000, wav(32, 'float')],
  [
    'wav-f64-mono-44100.wav',
    44_100,
    1,
    44_100,
    (channels, rate) => writeWav({ sampleRate: rate, channels, bits: 64, encoding: 'float' }),
  ],
  ['wav-s16-mono-8000.wav', 8_000, 1, 8_000, wav(16)],
  ['wav-s16-mono-11025.wav', 11_025, 1, 11_025, wav(16)],
  ['wav-s16-stereo-16000.wav', 16_000, 2, 16_000, wav(16)],
  ['wav-s24-stereo-32000.wav', 32_000, 2, 32_000, wav(24)],
  ['wav-s24-stereo-176400.wav', 176_400, 2, 44_100, wav(24)],
  ['wav-s16-3ch-48000.wav', 48_000, 3, 48_000, wav(16)],
  ['wavext-s16-mono-8000.wav', 8_000, 1, 8_000, wavExtensible(16, 'pcm', 0x4)],
  ['wavext-f32-stereo-88200.wav', 88_200, 2, 44_100, wavExtensible(32, 'float', 0x3)],
  ['wavext-s24-stereo-192000.wav', 192_000, 2, 48_000, wavExtensible(24, 'pcm', 0x3)],
  ['wavext-s32-stereo-22050.wav', 22_050, 2, 22_050, wavExtensible(32, 'pcm', 0x3)],
  ['wavext-s16-quad-44100.wav', 44_100, 4, 44_100, wavExtensible(16, 'pcm', 0x33)],
  ['wavext-s24-5.0-48000.wav', 48_000, 5, 48_000, wavExtensible(24, 'pcm', 0x607)],
  ['wavext-s24-5.1-48000.wav', 48_000, 6, 48_000, wavExtensible(24, 'pcm', 0x3f)],
  ['wavext-f32-5.1side-96000.wav', 96_000, 6, 48_000, wavExtensible(32, 'float', 0x60f)],
  ['aiff-8-mono-22050.aif', 22_050, 1, 22_050, aiff(8)],
  ['aiff-16-stereo-44100.aiff', 44_100, 2, 44_100, aiff(16)],
  ['aiff-24-stereo-48000.aiff', 48_000, 2, 48_000, aiff(24)],
  ['aiff-32-mono-96000.aiff', 96_000, 1, 48_000, aiff(32)],
  ['aiff-16-stereo-192000.aiff', 192_000, 2, 48_000, aiff(16)],
  ['aiff-24-5.1-48000.aiff', 48_000, 6, 48_000, aiff(24)],
  ['aifc-none-16-stereo-44100.aifc', 44_100, 2, 44_100, aiff(16, 'NONE')],
  ['aifc-twos-16-mono-8000.aifc', 8_000, 1, 8_000, aiff(16, 'twos')],
  ['aifc-sowt-24-stereo-48000.aifc', 48_000, 2, 48_000, aiff(24, 'sowt')],
  ['aifc-fl32-stereo-48000.aifc', 48_000, 2, 48_000, aiff(32, 'fl32')],
  ['aifc-fl64-mono-88200.aifc', 88_200, 1, 44_100, aiff(64, 'fl64')],
  ['aifc-in24-stereo-44100.aifc', 44_100, 2, 44_100, aiff(24, 'in24')],
  ['aifc-in32-mono-48000.aifc', 48_000, 1, 48_000, aiff(32, 'in32')],
  ['aifc-raw-8-mono-11025.aifc', 11_025, 1, 11_025, aiff(8, 'raw ')],
];

/** Files another program wrote (its own headers, chunk order and channel masks), when ffmpeg is installed. */
const BY_FFMPEG: Array<[string, number, number, number, string[]]> = [
  ['ffmpeg-wav-u8-mono-8000.wav', 8_000, 1, 8_000, ['-c:a', 'pcm_u8']],
  ['ffmpeg-wav-s24-5.1-48000.wav', 48_000, 6, 48_000, ['-c:a', 'pcm_s24le']],
  ['ffmpeg-wav-f64-stereo-192000.wav', 192_000, 2, 48_000, ['-c:a', 'pcm_f64le']],
  ['ffmpeg-wav-s32-stereo-11025.wav', 11_025, 2, 11_025, ['-c:a', 'pcm_s32le']],
  ['ffmpeg-aifc-f32-stereo-96000.aiff', 96_000, 2, 48_000, ['-c:a', 'pcm_f32be']],
  ['ffmpeg-aifc-f64-mono-44100.aiff', 44_100, 1, 44_100, ['-c:a', 'pcm_f64be']],
  ['ffmpeg-aiff-s24-5.1-44100.aiff', 44_100, 6, 44_100, ['-c:a', 'pcm_s24be']],
  ['ffmpeg-aiff-s8-mono-32000.aiff', 32_000, 1, 32_000, ['-c:a', 'pcm_s8']],
];

/** In CI a missing ffmpeg fails these cases rather than leaving them out. */
const useFfmpeg = hasFfmpeg || process.env.CI === 'true';
const CASES: FormatCase[] = [
  ...WRITTEN.map(
    ([file, sampleRate, channelCount, mp3Rate, write]): FormatCase => ({
      file,
      sampleRate,
      channelCount,
      mp3Rate,
      bytes: (c) => write(c, sampleRate),
    }),
  ),
  ...(useFfmpeg
    ? BY_FFMPEG.map(
        ([file, sampleRate, channelCount, mp3Rate, ffmpeg]): FormatCase => ({
          file,
          sampleRate,
          channelCount,
          mp3Rate,
          ffmpeg,
        }),
      )
    : []),
];

const SIDE = Math.SQRT1_2;
/**
 * What the MP3 should carry: mono stays mono, stereo stereo, more channels downmixed as `ffmpeg -ac 2` does (LFE
 * dropped).
 */
function delivered(channels: Float32Array[]): Float32Array[] {
  if (channels.length <= 2) return channels;
  const gains: Record<number, Array<[number, number]>> = {
    3: [
      [1, 0],
      [0, 1],
      [SIDE, SIDE],
    ],
    4: [
      [1, 0],
      [0, 1],
      [SIDE, 0],
      [0, SIDE],
    ],
    5: [
      [1, 0],
      [0, 1],
      [SIDE, SIDE],
      [SIDE, 0],
      [0, SIDE],
    ],
    6: [
      [1, 0],
      [0, 1],
      [SIDE, SIDE],
      [0, 0],
      [SIDE, 0],
      [0, SIDE],
    ],
  };
  const length = channels[0]!.length;
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  channels.forEach((channel, c) => {
    const [l, r] = gains[channels.length]![c]!;
    for (let i = 0; i < length; i++) {
      left[i] = left[i]! + l * channel[i]!;
      right[i] = right[i]! + r * channel[i]!;
    }
  });
  return [left, right];
}

describe('ingest.formats: common sound-library formats, channel counts and rates go in and play', () => {
  let folder: string;
  let server: TestServer;
  let key: string;
  let result: IngestResult;

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-formats-'));
    const sources = await mkdtemp(path.join(tmpdir(), 'sound-catalog-formats-src-'));
    try {
      for (const format of CASES) {
        const channels = channelTones(format.sampleRate, format.channelCount);
        const target = path.join(folder, format.file);
        if (format.bytes) {
          await writeFile(target, format.bytes(channels));
        } else {
          const source = path.join(sources, `${format.file}.wav`);
          await writeFile(source, encodeWavFloat32({ sampleRate: format.sampleRate, channels }));
          execFileSync('ffmpeg', [
            '-v',
            'error',
            '-i',
            source,
            ...format.ffmpeg!,
            '-f',
            path.extname(format.file) === '.wav' ? 'wav' : 'aiff',
            target,
          ]);
        }
      }
    } finally {
      await rm(sources, { recursive: true, force: true });
    }
    server = await startServer();
    ({ key } = await server.account('pro'));
    result = await ingestPaths(server.services, [folder], { workers: 2 });
  });
  after(async () => {
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });

  test('ingest.formats: every file is added, none failed or skipped', () => {
    assert.deepEqual(result.failed, []);
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(
      result.files.filter((file) => file.action !== 'added').map((file) => `${file.file} ${file.action}`),
      [],
    );
    assert.equal(result.added, CASES.length);
  });

  for (const format of CASES) {
    test(`ingest.formats: ${format.file} is added with its duration and loudness, and its MP3 decodes`, async () => {
      const record = result.files.find((file) => path.basename(file.file) === format.file);
      assert.ok(record, 'the file was seen');
      assert.equal(record.action, 'added', record.reason);
      const response = await server.get(`/api/v1/sounds/${record.id}`, { key });
      assert.equal(response.status, 200);
      const { data: sound } = await response.json();

      const source = channelTones(format.sampleRate, format.channelCount);
      const outFrames = Math.ceil((source[0]!.length * format.mp3Rate) / format.sampleRate);
      assert.ok(Math.abs(sound.duration - 1) < 0.002, `duration ${sound.duration}`);

      // Loudness as BS.1770 reads what the MP3 carries: the source, downmixed as the encoder does.
      const expected = analyzeAudio({ sampleRate: format.sampleRate, channels: delivered(source) }).loudness
        .integrated_lufs!;
      const lufs = sound.loudness.integrated_lufs;
      assert.ok(
        Number.isFinite(lufs) && Math.abs(lufs - expected) < 0.5,
        `loudness ${lufs}, expected about ${expected.toFixed(2)}`,
      );
      assert.ok(
        Number.isFinite(sound.loudness.true_peak_db) && sound.loudness.true_peak_db < 0,
        `true peak ${sound.loudness.true_peak_db}`,
      );

      const {
        data: { download_url: url },
      } = await (await server.get(`/api/v1/sounds/${record.id}/download`, { key })).json();
      const mp3 = new Uint8Array(await (await fetch(url)).arrayBuffer());
      const decoded = await decodeAudio(mp3);
      assert.equal(decoded.format, 'mp3');
      assert.equal(decoded.channels.length, format.channelCount === 1 ? 1 : 2);
      assert.equal(decoded.sampleRate, format.mp3Rate);
      assert.equal(decoded.channels[0]!.length, outFrames, 'gapless: every sample, and no more');
      if (hasFfmpeg) {
        // Another decoder plays it too.
        const downloaded = path.join(folder, `${format.file}.delivered.mp3`);
        await writeFile(downloaded, mp3);
        const pcm = execFileSync('ffmpeg', ['-v', 'error', '-i', downloaded, '-f', 'f32le', '-'], {
          maxBuffer: 64 << 20,
        });
        await rm(downloaded);
        assert.ok(
          Math.abs(pcm.length / 4 / decoded.channels.length - outFrames) <= 1152,
          `ffmpeg decoded ${pcm.length} bytes`,
        );
      }
    });
  }
});
