import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseBuffer } from 'music-metadata';
import { contentHashOf } from '../../../src/catalog/writer.ts';
import { encodeAndMeasure } from '../../../src/ingest/measure.ts';
import { needsFfmpeg } from '../../audio/helpers/ffmpeg.ts';
import { statusOf } from '../../helpers/http.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { tone } from '../../mcp/real-sounds.ts';
import { signedUrl } from '../helpers.ts';
import { listItems, riffChunks, zstring } from './riff-chunks.ts';
import { probeTags } from './probe-tags.ts';

const SOUND = {
  name: 'Glass Break Ünïcode',
  description: 'A wine glass breaks on stone & shatters <close>',
  tags: ['glass', 'break', 'impact'],
  category: 'SFX' as const,
  license: 'CC0',
  sample: false,
};

/** Raw interleaved float samples as ffmpeg decodes them. */
function decoded(file: string): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-'], { maxBuffer: 1 << 28 });
}

describe("tags (issue 40): every delivered file carries the sound's metadata", () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let mp3: Uint8Array;
  let dir: string;
  let timing: { onset_ms: number | null; peak_ms: number | null; tail_ms: number | null };

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    const audio = tone(1.5, 0.3, 440);
    // Silence first, so onset, peak and tail are apart from the file's start.
    const padded = new Float32Array(audio.channels[0]!.length + 22_050);
    padded.set(audio.channels[0]!, 22_050);
    const encoded = await encodeAndMeasure({ sampleRate: 44_100, channels: [padded] });
    mp3 = encoded.mp3;
    timing = encoded.measurements.timing;
    ({ id } = await server.services.catalogWriter.put({
      contentHash: contentHashOf(mp3),
      mp3,
      measurements: encoded.measurements,
      metadata: SOUND,
    }));
    dir = await mkdtemp(path.join(tmpdir(), 'tags-test-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const download = async (query: string, extension: string) => {
    const response = await fetch(await signedUrl(server, key, id, 'download', query));
    assert.equal(response.status, 200, query);
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.headers.get('content-length'), String(bytes.length));
    const file = path.join(dir, `${query.replace(/\W/g, '_')}.${extension}`);
    await writeFile(file, bytes);
    return { response, bytes, file };
  };

  test(
    "tags.mp3: the catalog's own MP3 has an ID3v2.4 tag and decodes to exactly the stored samples",
    needsFfmpeg,
    async () => {
      const { bytes, file } = await download('', 'mp3');
      assert.equal(Buffer.from(bytes).toString('latin1', 0, 3), 'ID3');
      assert.equal(bytes[3], 4, 'ID3v2.4');
      const tags = probeTags(file);
      assert.equal(tags.title, SOUND.name);
      assert.equal(tags.genre, 'SFX');
      assert.match(tags.copyright ?? '', /CC0/);
      assert.equal(tags.sound_id, id);
      assert.equal(tags.comment, SOUND.description);
      const { common, native } = await parseBuffer(bytes, { mimeType: 'audio/mpeg' });
      assert.equal(common.title, SOUND.name);
      const frames = Object.fromEntries((native['ID3v2.4'] ?? []).map((tag) => [tag.id, tag.value]));
      assert.match(String(frames.WCOP), /^https:\/\/creativecommons\.org\/publicdomain\/zero\/1\.0\//);
      assert.equal(frames.WOAS, `${new URL(server.url).origin}/api/v1/sounds/${id}`);
      const stored = path.join(dir, 'stored.mp3');
      await writeFile(stored, mp3);
      assert.ok(decoded(file).equals(decoded(stored)), 'the same samples, to the bit');
    },
  );

  test(
    'tags.wav: bext, iXML, LIST/INFO and cue points labelled onset, peak and tail before data',
    needsFfmpeg,
    async () => {
      const { bytes, file } = await download('?format=wav&sample_rate=48000', 'wav');
      const chunks = riffChunks(bytes);
      const ids = chunks.map((chunk) => chunk.id);
      assert.equal(ids.at(-1), 'data');
      assert.equal(Buffer.from(bytes).readUInt32LE(4), bytes.length - 8, "RIFF size is the delivered file's");
      for (const wanted of ['fmt ', 'bext', 'iXML', 'LIST', 'cue ']) assert.ok(ids.includes(wanted), wanted);
      const chunk = (name: string) => chunks.find((c) => c.id === name)!.payload;

      const bext = chunk('bext');
      assert.equal(zstring(bext.subarray(0, 256)), 'A wine glass breaks on stone & shatters <close>');
      assert.equal(zstring(bext.subarray(256, 288)), 'Sound Catalog');
      assert.match(zstring(bext.subarray(320, 330)), /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(bext.readUInt32LE(338), 0, 'TimeReference 0');
      assert.equal(bext.readUInt16LE(346), 1, 'version 1');

      const ixml = chunk('iXML').toString('utf8');
      assert.match(ixml, /^<\?xml [^>]*\?>\s*<BWFXML><IXML_VERSION>/);
      assert.match(ixml, /<FXNAME>Glass Break Ünïcode<\/FXNAME>/);
      assert.match(ixml, /<DESCRIPTION>A wine glass breaks on stone &amp; shatters &lt;close&gt;<\/DESCRIPTION>/);
      assert.match(ixml, /<KEYWORDS>glass, break, impact<\/KEYWORDS>/);
      // The tags name UCS's GLASS and its BREAK: the CatID is known, so the file states it.
      assert.match(ixml, /<CATID>GLASBrk<\/CATID>/);
      assert.match(ixml, new RegExp(`<URL>[^<]*/api/v1/sounds/${id}</URL>`));
      assert.match(ixml, /License: CC0/);

      const lists = chunks.filter((c) => c.id === 'LIST').map((c) => c.payload);
      const info = lists.find((payload) => payload.toString('latin1', 0, 4) === 'INFO')!;
      const fields = Object.fromEntries(listItems(info).map((item) => [item.id, zstring(item.text, 'utf8')]));
      assert.equal(fields.INAM, SOUND.name);
      assert.equal(fields.IKEY, 'glass; break; impact');
      assert.equal(fields.IGNR, 'SFX');

      // Markers at the delivered rate: the sound's milliseconds times 48 kHz.
      const cue = chunk('cue ');
      const points = new Map<number, number>();
      for (let i = 0; i < cue.readUInt32LE(0); i++)
        points.set(cue.readUInt32LE(4 + 24 * i), cue.readUInt32LE(8 + 24 * i));
      const adtl = lists.find((payload) => payload.toString('latin1', 0, 4) === 'adtl')!;
      const labels = Object.fromEntries(
        listItems(adtl).map((item) => [zstring(item.text.subarray(4)), points.get(item.text.readUInt32LE(0))]),
      );
      for (const label of ['onset', 'peak', 'tail'] as const)
        assert.equal(labels[label], Math.round((timing[`${label}_ms`]! * 48_000) / 1000), label);

      const tags = probeTags(file);
      assert.equal(tags.title, SOUND.name);
      assert.equal(tags.genre, 'SFX');
      // ffmpeg names bext's Originator encoded_by, and shows ICMT (the description) as comment.
      assert.equal(tags.encoded_by, 'Sound Catalog');
      assert.equal(tags.comment, SOUND.description);
    },
  );

  test("tags.wav-trim: a trimmed rendition's markers count from its own start", async () => {
    const { bytes } = await download('?format=wav&trim=true', 'wav');
    const chunks = riffChunks(bytes);
    const cue = chunks.find((c) => c.id === 'cue ')!.payload;
    const frames = Array.from({ length: cue.readUInt32LE(0) }, (_, i) => cue.readUInt32LE(8 + 24 * i));
    const onset = Math.round((timing.onset_ms! * 44_100) / 1000);
    assert.deepEqual(frames, [
      0,
      Math.round((timing.peak_ms! * 44_100) / 1000) - onset,
      Math.round((timing.tail_ms! * 44_100) / 1000) - onset,
    ]);
  });

  for (const [query, extension] of [
    ['?format=flac', 'flac'],
    ['?format=ogg', 'ogg'],
    ['?format=opus', 'opus'],
  ] as const) {
    test(
      `tags.${extension}: a Vorbis comment ffprobe and music-metadata read; the audio decodes as before`,
      needsFfmpeg,
      async () => {
        const { file, bytes } = await download(query, extension);
        const tags = probeTags(file);
        assert.equal(tags.title, SOUND.name);
        // ffmpeg shows DESCRIPTION as comment.
        assert.equal(tags.comment, SOUND.description);
        assert.equal(tags.genre, 'SFX');
        assert.equal(tags.license, 'CC0');
        assert.equal(tags.catalognumber, id);
        assert.match(tags.copyright ?? '', /CC0/);
        assert.equal(tags.url, `${new URL(server.url).origin}/api/v1/sounds/${id}`);
        assert.equal(tags.loopstart, undefined, 'no loop for a sound that is not one');
        const { common } = await parseBuffer(bytes);
        assert.equal(common.title, SOUND.name);
        // ffmpeg checks every page's CRC: a stream whose later pages broke would not decode whole.
        execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
        assert.ok(decoded(file).length > 0);
      },
    );
  }

  test('tags.range: a Range over the tagged file returns its bytes, across the head and the stored rest', async () => {
    const url = await signedUrl(server, key, id, 'stream', '?format=flac');
    const whole = new Uint8Array(await (await fetch(url)).arrayBuffer());
    for (const [start, end] of [
      [0, 9],
      [100, 5000],
      [whole.length - 10, whole.length - 1],
    ] as const) {
      const partial = await fetch(url, { headers: { range: `bytes=${start}-${end}` } });
      assert.equal(partial.status, 206);
      assert.equal(partial.headers.get('content-range'), `bytes ${start}-${end}/${whole.length}`);
      assert.deepEqual(new Uint8Array(await partial.arrayBuffer()), whole.slice(start, end + 1));
    }
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), String(whole.length));
  });

  test("tags.etag: a change of the sound's metadata changes the file and its ETag", needsFfmpeg, async () => {
    const url = await signedUrl(server, key, id, 'stream', '');
    const before = await fetch(url, { method: 'HEAD' });
    const etag = before.headers.get('etag')!;
    assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+-[\w-]+"$/);
    assert.equal(await statusOf(url, { 'if-none-match': etag }), 304);
    await server.services.catalogWriter.updateMetadata(contentHashOf(mp3), { ...SOUND, name: 'Glass Break Renamed' });
    assert.equal(await statusOf(url, { 'if-none-match': etag }), 200, 'the old tags are not the file now');
    const renamed = await fetch(url);
    assert.notEqual(renamed.headers.get('etag'), etag);
    const file = path.join(dir, 'renamed.mp3');
    await writeFile(file, new Uint8Array(await renamed.arrayBuffer()));
    assert.equal(probeTags(file).title, 'Glass Break Renamed');
    await server.services.catalogWriter.updateMetadata(contentHashOf(mp3), SOUND);
  });
});
