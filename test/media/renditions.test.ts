import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeAudio } from '../../src/audio/analyze/index.ts';
import { decodeAudio } from '../../src/audio/decode/index.ts';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import type { AudioMeasurements } from '../../src/audio/types.ts';
import { contentHashOf } from '../../src/catalog/writer.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { ffmpegEbur128, hasFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { withoutId3 } from '../helpers/id3.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { renditionKey } from '../../src/media/renditions.ts';
import { callTool, connectMcp, textOf } from '../mcp/mcp-client.ts';

type UrlBody = { data: { stream_url?: string; download_url?: string } };

/** Ready-to-use renditions (issue 16): `loudness` and `trim` on the stream and download endpoints. */
describe('renditions (extension): loudness-normalized and trimmed MP3s behind signed URLs', () => {
  let server: TestServer;
  let key: string;
  const sounds: Record<string, { id: string; mp3: Uint8Array; measurements: AudioMeasurements }> = {};

  const signedUrl = async (id: string, what: 'stream' | 'download', query: string) => {
    const response = await server.get(`/api/v1/sounds/${id}/${what}${query}`, { key });
    assert.equal(response.status, 200, query);
    const { data } = (await response.json()) as UrlBody;
    return (data.stream_url ?? data.download_url)!;
  };
  const fetchMp3 = async (url: string) => {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  };
  /** The delivered file measured by the project's analyzer, and by ffmpeg's EBU R128 meter when it is installed. */
  const measure = async (bytes: Uint8Array, name: string) => {
    const own = analyzeAudio(await decodeAudio(bytes));
    let ffmpeg = null;
    if (hasFfmpeg) {
      const file = path.join(server.dataDir, `${name}.mp3`);
      await writeFile(file, bytes);
      ffmpeg = await ffmpegEbur128(file);
    }
    return { own, ffmpeg };
  };

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    for (const [name, index] of [
      ['laser', 14],
      ['buzz', 120],
    ] as const) {
      const sound = synthesizeSound('similar', index);
      const { mp3, measurements } = await encodeAndMeasure(sound.audio);
      const { id } = await server.services.catalogWriter.put({
        contentHash: contentHashOf(mp3),
        mp3,
        measurements,
        metadata: {
          name: sound.name,
          description: null,
          tags: sound.tags,
          category: sound.category,
          license: 'CC0',
          sample: false,
        },
      });
      sounds[name] = { id, mp3, measurements };
    }
  });
  after(() => server.close());

  test(
    'renditions.loudness: delivered within 0.5 LU of the ' +
      'target, true peak at or under -1 dBTP, as its headers state',
    async () => {
      for (const [name, target] of [
        ['laser', -16],
        ['laser', -30],
        ['buzz', -10],
      ] as const) {
        const url = await signedUrl(sounds[name]!.id, 'stream', `?loudness=${target}`);
        assert.match(url, new RegExp(`[?&]loudness=${target}&account=[\\w-]+&exp=`));
        const { response, bytes } = await fetchMp3(url);
        assert.equal(response.headers.get('content-type'), 'audio/mpeg');
        const { own, ffmpeg } = await measure(bytes, `${name}${target}`);
        assert.ok(
          Math.abs(own.loudness.integrated_lufs! - target) <= 0.5,
          `${name} at ${target}: analyzer ${own.loudness.integrated_lufs}`,
        );
        assert.ok(own.loudness.true_peak_db! <= -1, `${name} at ${target}: true peak ${own.loudness.true_peak_db}`);
        assert.equal(Number(response.headers.get('x-integrated-lufs')), own.loudness.integrated_lufs);
        assert.equal(Number(response.headers.get('x-true-peak-dbtp')), own.loudness.true_peak_db);
        if (ffmpeg) {
          assert.ok(
            Math.abs(ffmpeg.integratedLufs - target) <= 0.5,
            `${name} at ${target}: ffmpeg ${ffmpeg.integratedLufs}`,
          );
          assert.ok(ffmpeg.truePeakDb <= -1, `${name} at ${target}: ffmpeg true peak ${ffmpeg.truePeakDb}`);
        }
      }
    },
  );

  test('renditions.trim: the silence before the onset and after the tail is cut, to within 10 ms', async () => {
    const { id, measurements } = sounds.laser!;
    const expected = (measurements.timing.tail_ms! - measurements.timing.onset_ms!) / 1000;
    const { response, bytes } = await fetchMp3(await signedUrl(id, 'stream', '?trim=true'));
    const { own } = await measure(bytes, 'laser-trim');
    assert.ok(Math.abs(own.duration - expected) <= 0.01, `trimmed to ${own.duration} s, expected ${expected} s`);
    assert.ok(own.timing.onset_ms! <= 10, `starts at once: onset ${own.timing.onset_ms} ms`);
    assert.ok(Math.abs(Number(response.headers.get('x-duration-seconds')) - expected) <= 0.01);
    const both = await fetchMp3(await signedUrl(id, 'download', '?trim=true&loudness=-20'));
    const measured = await measure(both.bytes, 'laser-both');
    assert.ok(Math.abs(measured.own.duration - expected) <= 0.01);
    assert.ok(Math.abs(measured.own.loudness.integrated_lufs! - -20) <= 0.5);
    assert.match(
      both.response.headers.get('content-disposition') ?? '',
      /^attachment; filename="laser-burst[\w-]*\.mp3"/,
    );
  });

  test(
    'renditions.unchanged: without the parameters, or with ' + 'ones that cannot be read, the original file is served',
    async () => {
      const { id, mp3 } = sounds.buzz!;
      for (const query of ['', '?trim=false', '?loudness=loud', '?trim=yes', '?loudness=']) {
        const url = await signedUrl(id, 'stream', query);
        assert.doesNotMatch(url, /loudness=|trim=/, query);
        assert.deepEqual(withoutId3((await fetchMp3(url)).bytes), mp3, query);
      }
      assert.match(await signedUrl(id, 'stream', '?loudness=-99'), /loudness=-40&/);
      assert.match(await signedUrl(id, 'stream', '?loudness=3'), /loudness=-5&/);
      assert.match(await signedUrl(id, 'stream', '?loudness=-16.04'), /loudness=-16&/);
    },
  );

  test('renditions.signed: the signature covers the parameters; a URL never serves another rendition', async () => {
    const url = await signedUrl(sounds.laser!.id, 'stream', '?loudness=-16&trim=true');
    assert.equal((await fetch(url)).status, 200);
    for (const tampered of [
      url.replace('loudness=-16', 'loudness=-12'),
      url.replace('&trim=true', ''),
      url.replace('&loudness=-16', ''),
      url.replace('d=stream', 'd=inline'),
      url.replace('loudness=-16', 'loudness=-16.0'),
      url.replace(/account=[\w-]+/, 'account=someone-else'),
      url.replace(/&account=[\w-]+/, ''),
    ]) {
      assert.notEqual(tampered, url);
      assert.equal((await fetch(tampered)).status, 403, tampered);
    }
  });

  test('renditions.mcp: get_stream_url and get_download_url take loudness and trim, signed like REST', async () => {
    const client = await connectMcp(server, key);
    try {
      const { id } = sounds.laser!;
      const stream = await callTool(client, 'get_stream_url', { id, loudness: -16.04, trim: true });
      assert.notEqual(stream.isError, true, textOf(stream));
      const url = (stream.structuredContent as { stream_url: string }).stream_url;
      assert.match(url, /[?&]d=stream&loudness=-16&trim=true&account=[\w-]+&exp=/);
      const fromRest = await fetchMp3(await signedUrl(id, 'stream', '?loudness=-16&trim=true'));
      assert.deepEqual((await fetchMp3(url)).bytes, fromRest.bytes);
      const download = await callTool(client, 'get_download_url', { id, loudness: -23 });
      assert.match(
        (download.structuredContent as { download_url: string }).download_url,
        /[?&]d=download&loudness=-23&account=[\w-]+&exp=/,
      );
      const refused = await callTool(client, 'get_download_url', { id, loudness: -3 });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /<=-5 at loudness/);
    } finally {
      await client.close();
    }
  });

  test(
    'renditions.once: made on the first request, kept ' + 'by content and parameters, served from disk after',
    async () => {
      const { id } = sounds.buzz!;
      const urls = await Promise.all(Array.from({ length: 4 }, () => signedUrl(id, 'stream', '?loudness=-23')));
      const bodies = await Promise.all(urls.map(async (url) => (await fetchMp3(url)).bytes));
      for (const body of bodies) assert.deepEqual(body, bodies[0]);
      // Through the media store, so this holds on a folder and on S3 alike.
      const stored = (await server.services.catalog.findById(id))!;
      const key = renditionKey(stored.contentHash, { loudness: -23 });
      assert.ok(await server.services.files.stat(key), `one file for the rendition: ${key}`);
      const made = (await server.services.renditions.stats()).made;
      const again = await fetch(await signedUrl(id, 'download', '?loudness=-23'));
      assert.deepEqual(new Uint8Array(await again.arrayBuffer()), bodies[0]);
      assert.equal((await server.services.renditions.stats()).made, made, 'not made again');
      // An operator may empty the renditions folder (docs/operations.md, "Backups"): a rendition whose file is gone is
      // made again.
      await server.services.files.remove(key);
      assert.deepEqual((await fetchMp3(urls[1]!)).bytes, bodies[0]);
      const range = await fetch(urls[0]!, { headers: { range: 'bytes=0-99' } });
      assert.equal(range.status, 206);
      assert.equal((await range.arrayBuffer()).byteLength, 100);
    },
  );
});
