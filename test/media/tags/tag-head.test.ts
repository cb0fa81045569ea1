import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renderRendition } from '../../../src/audio/render.ts';
import type { PlayedPart } from '../../../src/audio/played-audio.ts';
import { encodeAndMeasure } from '../../../src/ingest/measure.ts';
import {
  type FileTags,
  fileTagsOf,
  HeadIncompleteError,
  type SoundLoop,
  tagHead,
  UnknownHeadError,
} from '../../../src/media/tags/index.ts';
import { needsFfmpeg } from '../../audio/helpers/ffmpeg.ts';
import { tone } from '../../mcp/real-sounds.ts';
import { riffChunks } from './riff-chunks.ts';
import { probeTags } from './probe-tags.ts';

const RATE = 44_100;
const SOUND = {
  id: 'snd_loop',
  name: 'Engine Loop',
  description: 'A small engine idling',
  category: 'SFX',
  tags: ['engine', 'loop'],
  license: 'CC0',
  createdAt: '2025-03-04T05:06:07.000Z',
  timing: { onset_ms: 100, peak_ms: 500, tail_ms: 1800 },
};

function tagsOf(loop: SoundLoop | null, played: PlayedPart = {}, description = SOUND.description): FileTags {
  return fileTagsOf({ ...SOUND, description }, { baseUrl: 'https://sounds.example', loop, sourceRate: RATE, played });
}

/** A WAV file's one sampler loop: start and end (the last frame played). */
function smplLoop(bytes: Uint8Array): { start: number; end: number } | null {
  const smpl = riffChunks(bytes).find((chunk) => chunk.id === 'smpl')?.payload;
  if (!smpl) return null;
  assert.equal(smpl.readUInt32LE(28), 1, 'one loop');
  assert.equal(smpl.readUInt32LE(40), 0, 'forward');
  return { start: smpl.readUInt32LE(44), end: smpl.readUInt32LE(48) };
}

describe('tag heads: each container written by the head writer and read back by ffmpeg', () => {
  let dir: string;
  const stored = new Map<string, Buffer>();
  const render = async (
    name: string,
    part: PlayedPart & { format: 'wav' | 'flac' | 'ogg' | 'opus'; rate?: number },
  ) => {
    const file = path.join(dir, name);
    await renderRendition(path.join(dir, 'source.mp3'), file, {
      ...part,
      output: { format: part.format, ...(part.rate && { sampleRate: part.rate }) },
    });
    stored.set(name, await readFile(file));
  };
  const deliver = async (name: string, format: 'wav' | 'flac' | 'ogg' | 'opus' | 'mp3', tags: FileTags) => {
    const bytes = stored.get(name)!;
    const { head, audioStart } = tagHead(format, bytes, bytes.length, tags);
    const delivered = Buffer.concat([head, bytes.subarray(audioStart)]);
    const file = path.join(dir, `tagged-${name}`);
    await writeFile(file, delivered);
    return { file, delivered, audioStart, head };
  };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tag-head-'));
    const { mp3 } = await encodeAndMeasure(tone(2, 0.3));
    await writeFile(path.join(dir, 'source.mp3'), mp3);
    stored.set('source.mp3', Buffer.from(mp3));
    await render('plain.wav', { format: 'wav' });
    await render('48k.wav', { format: 'wav', rate: 48_000 });
    await render('trim.wav', { format: 'wav', trim: { startMs: 100, endMs: 1800 } });
    await render('plain.flac', { format: 'flac' });
    await render('plain.ogg', { format: 'ogg' });
    await render('plain.opus', { format: 'opus' });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const loop = { startSample: 4410, endSample: 48_510 };

  test("tags.loop-wav: one forward smpl loop in the file's own frames", async () => {
    assert.deepEqual(smplLoop((await deliver('plain.wav', 'wav', tagsOf(loop))).delivered), {
      start: 4410,
      end: 48_509,
    });
    // At 48 kHz: the same seconds, counted at the file's rate.
    const at48 = smplLoop((await deliver('48k.wav', 'wav', tagsOf(loop))).delivered);
    assert.deepEqual(at48, { start: 4800, end: 52_800 - 1 });
    // Trimmed from 100 ms (4410 frames): the loop starts at the file's start.
    const trimmed = tagsOf(loop, { trim: { startMs: 100, endMs: 1800 } });
    assert.deepEqual(smplLoop((await deliver('trim.wav', 'wav', trimmed)).delivered), { start: 0, end: 44_099 });
    // Cut to half a second: the loop's end is past the file's, so no loop at all.
    assert.equal(smplLoop((await deliver('plain.wav', 'wav', tagsOf(loop, { maxMs: 500 }))).delivered), null);
    // A loop that begins before a trim's start is not in the file either.
    const before = tagsOf({ startSample: 0, endSample: 44_100 }, { trim: { startMs: 100, endMs: 1800 } });
    assert.equal(smplLoop((await deliver('trim.wav', 'wav', before)).delivered), null);
    assert.equal(smplLoop((await deliver('plain.wav', 'wav', tagsOf(null))).delivered), null, 'no loop, no smpl');
  });

  for (const [name, format, start, length] of [
    ['plain.flac', 'flac', 4410, 44_100],
    ['plain.ogg', 'ogg', 4410, 44_100],
    ['plain.opus', 'opus', 4800, 48_000],
  ] as const) {
    test(`tags.loop-${format}: LOOPSTART and LOOPLENGTH in the file's frames`, needsFfmpeg, async () => {
      const { file } = await deliver(name, format, tagsOf(loop));
      const tags = probeTags(file);
      assert.equal(tags.loopstart, String(start));
      assert.equal(tags.looplength, String(length));
      assert.equal(tags.title, SOUND.name);
      execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
      const untagged = await deliver(name, format, tagsOf(null));
      assert.equal(probeTags(untagged.file).loopstart, undefined);
    });
  }

  test("tags.flac-blocks: one VORBIS_COMMENT after STREAMINFO, libFLAC's vendor kept, the last flag on the last block", async () => {
    const { delivered, head } = await deliver('plain.flac', 'flac', tagsOf(null));
    const blocks: Array<{ type: number; last: boolean; body: Buffer }> = [];
    for (let at = 4, last = false; !last; ) {
      last = (delivered[at]! & 0x80) !== 0;
      const size = delivered.readUIntBE(at + 1, 3);
      blocks.push({ type: delivered[at]! & 0x7f, last, body: delivered.subarray(at + 4, at + 4 + size) });
      at += 4 + size;
    }
    assert.equal(blocks[0]!.type, 0);
    assert.equal(blocks[1]!.type, 4);
    assert.equal(blocks.filter((block) => block.type === 4).length, 1);
    assert.deepEqual(
      blocks.map((block) => block.last),
      blocks.map((_, index) => index === blocks.length - 1),
    );
    const vendor = blocks[1]!.body.subarray(4, 4 + blocks[1]!.body.readUInt32LE(0)).toString();
    assert.match(vendor, /libFLAC/);
    assert.equal(head.length, 4 + blocks.reduce((sum, block) => sum + 4 + block.body.length, 0));
  });

  test(
    'tags.ogg-pages: a long comment keeps the header page count; too long drops fields, never the audio',
    needsFfmpeg,
    async () => {
      const pageCount = (bytes: Buffer) => {
        let count = 0;
        for (let at = 0; at < bytes.length; count++) {
          assert.equal(bytes.toString('latin1', at, at + 4), 'OggS');
          const segments = bytes[at + 26]!;
          let body = 0;
          for (let i = 0; i < segments; i++) body += bytes[at + 27 + i]!;
          at += 27 + segments + body;
        }
        return count;
      };
      for (const [name, format] of [
        ['plain.ogg', 'ogg'],
        ['plain.opus', 'opus'],
      ] as const) {
        const original = stored.get(name)!;
        const long = 'é'.repeat(10_000);
        const { file, delivered } = await deliver(name, format, tagsOf(null, {}, long));
        assert.equal(pageCount(delivered), pageCount(original), 'as many pages');
        assert.equal(probeTags(file).comment, long);
        execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
        const huge = await deliver(name, format, tagsOf(null, {}, 'x'.repeat(100_000)));
        assert.equal(pageCount(huge.delivered), pageCount(original));
        const tags = probeTags(huge.file);
        assert.equal(tags.comment, undefined, 'the description that does not fit is left out');
        assert.equal(tags.title, SOUND.name);
        execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', huge.file, '-f', 'null', '-']);
      }
    },
  );

  test("tags.mp3-replace: an MP3's own ID3v2 tag is replaced, and the samples stay the same", needsFfmpeg, async () => {
    const source = path.join(dir, 'source.mp3');
    const old = path.join(dir, 'old-tag.mp3');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      source,
      '-c',
      'copy',
      '-metadata',
      'title=Old Title',
      '-id3v2_version',
      '3',
      old,
    ]);
    stored.set('old-tag.mp3', await readFile(old));
    const { file } = await deliver('old-tag.mp3', 'mp3', tagsOf(null));
    const tags = probeTags(file);
    assert.equal(tags.title, SOUND.name);
    assert.equal(tags.sound_id, SOUND.id);
    const pcm = (input: string) => execFileSync('ffmpeg', ['-v', 'error', '-i', input, '-f', 's16le', '-']);
    assert.ok(pcm(file).equals(pcm(old)));
  });

  test('tags.unknown: bytes that are not the format are refused, so the route serves them as stored', () => {
    assert.throws(() => tagHead('wav', Buffer.alloc(64), 64, tagsOf(null)), UnknownHeadError);
    assert.throws(() => tagHead('mp3', Buffer.alloc(64, 7), 64, tagsOf(null)), UnknownHeadError);
    assert.throws(() => tagHead('flac', Buffer.from('fLaC'), 4, tagsOf(null)), HeadIncompleteError);
  });
});
