import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKGROUND } from '../../../src/audio/pictures/draw.ts';
import { pictureKey, pictureSpec } from '../../../src/media/picture-key.ts';
import { needsFfmpeg } from '../../audio/helpers/ffmpeg.ts';
import { pixelsOtherThan, readPng } from '../../audio/helpers/png.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addRealSound, tone } from '../../mcp/real-sounds.ts';

const KINDS = ['waveform', 'spectrogram'] as const;

describe('pictures (extension): GET /api/v1/sounds/{id}/waveform.png and spectrogram.png', needsFfmpeg, () => {
  let server: TestServer;
  let key: string;
  let loud: string;
  let silent: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    ({ id: loud } = await addRealSound(server.services, tone(2, 0.8, 660), 'Loud Tone'));
    ({ id: silent } = await addRealSound(server.services, tone(2, 0), 'Silence'));
  });
  after(() => server.close());

  const picture = async (id: string, kind: string, query = '', headers: Record<string, string> = {}) => {
    const response = await server.get(`/api/v1/sounds/${id}/${kind}.png${query}`, { key, headers });
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  for (const kind of KINDS) {
    test(`pictures.${kind}.sizes: a PNG of 1200×300 by default and 600×150 small, drawn where the sound is`, async () => {
      for (const [query, width, height] of [
        ['', 1200, 300],
        ['?size=large', 1200, 300],
        ['?size=small', 600, 150],
      ] as const) {
        const { response, bytes } = await picture(loud, kind, query);
        assert.equal(response.status, 200, query);
        assert.equal(response.headers.get('content-type'), 'image/png');
        const read = readPng(bytes);
        assert.deepEqual([read.codec, read.width, read.height], ['png', width, height], query);
        const drawn = pixelsOtherThan(read, BACKGROUND);
        assert.ok(drawn > (width * height) / 10, `${kind}${query}: ${drawn} pixels drawn`);
      }
    });

    test(`pictures.${kind}.silence: a silent sound draws the background only`, async () => {
      const { response, bytes } = await picture(silent, kind);
      assert.equal(response.status, 200);
      const read = readPng(bytes);
      assert.deepEqual([read.width, read.height], [1200, 300]);
      assert.equal(pixelsOtherThan(read, BACKGROUND), 0);
    });
  }

  test('pictures.spectrogram.axis: a 660 Hz tone is brightest at the height of 660 Hz on the log axis', async () => {
    const { bytes } = await picture(loud, 'spectrogram', '?size=small');
    const read = readPng(bytes);
    // The column in the middle of the sound; brightness as the sum of the channels.
    const x = Math.round(read.width / 4);
    let brightest = 0;
    let best = -1;
    for (let y = 0; y < read.height; y++) {
      const at = (y * read.width + x) * 3;
      const level = read.rgb[at]! + read.rgb[at + 1]! + read.rgb[at + 2]!;
      if (level > best) [best, brightest] = [level, y];
    }
    const hz = 40 * (22_050 / 40) ** ((read.height - 1 - brightest + 0.5) / read.height);
    assert.ok(Math.abs(Math.log2(hz / 660)) < 0.1, `brightest row ${brightest} is ${hz.toFixed(0)} Hz`);
  });

  test('pictures.etag: a strong ETag of the bytes; If-None-Match answers 304; each call counts one request', async () => {
    const first = await picture(loud, 'spectrogram', '?size=small');
    const etag = first.response.headers.get('etag')!;
    assert.match(etag, /^"[A-Za-z0-9_-]{43}"$/, 'strong: no W/ prefix');
    const again = await picture(loud, 'spectrogram', '?size=small');
    assert.equal(again.response.headers.get('etag'), etag);
    assert.deepEqual(again.bytes, first.bytes, 'the stored picture, unchanged');
    const notModified = await picture(loud, 'spectrogram', '?size=small', { 'if-none-match': `"other", ${etag}` });
    assert.equal(notModified.response.status, 304);
    assert.equal(notModified.bytes.length, 0);
    assert.equal(notModified.response.headers.get('etag'), etag);
    const remaining = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'));
    assert.equal(remaining(again.response), remaining(first.response) - 1);
    assert.equal(remaining(notModified.response), remaining(again.response) - 1);
    const otherSize = await picture(loud, 'spectrogram');
    assert.notEqual(otherSize.response.headers.get('etag'), etag);
    assert.equal(remaining(otherSize.response), remaining(notModified.response) - 1, 'a new picture counts one too');
  });

  test('pictures.stored: made once, then served from the media store', async () => {
    await picture(loud, 'waveform', '?size=small');
    const made = (await server.services.renditions.stats()).made;
    await picture(loud, 'waveform', '?size=small');
    assert.equal((await server.services.renditions.stats()).made, made);
    const sound = (await server.services.catalog.findById(loud))!;
    const stat = await server.services.files.stat(pictureKey(sound.contentHash, pictureSpec('waveform', 'small')));
    assert.ok(stat && stat.size > 0);
  });

  test('pictures.errors: 404 for an unknown sound, 400 for a bad size, 401 without a key, 403 on free', async () => {
    const missing = await picture('no-such-sound', 'waveform');
    assert.equal(missing.response.status, 404);
    assert.deepEqual(JSON.parse(Buffer.from(missing.bytes).toString()), { error: 'Sound no-such-sound not found' });
    for (const size of ['huge', '', '1200x300']) {
      const refused = await picture(loud, 'spectrogram', `?size=${size}`);
      assert.equal(refused.response.status, 400, size);
      assert.match(Buffer.from(refused.bytes).toString(), /size/);
    }
    assert.equal((await server.get(`/api/v1/sounds/${loud}/waveform.png`)).status, 401);
    const free = await server.account('free');
    assert.equal((await server.get(`/api/v1/sounds/${loud}/waveform.png`, { key: free.key })).status, 403);
  });
});

describe('pictures.bound: pictures share RENDITIONS_MAX_BYTES with the renditions', needsFfmpeg, () => {
  let server: TestServer;
  after(() => server?.close());

  test('pictures.bound.evict: storing past the bound removes the least recently served pictures', async () => {
    // About two small spectrograms of a tone fit; the third makes the first go.
    server = await startServer({ env: { RENDITIONS_MAX_BYTES: '40000' } });
    const { key } = await server.account('pro');
    const ids: string[] = [];
    for (const frequency of [300, 1200, 4800]) {
      ids.push((await addRealSound(server.services, tone(1, 0.5, frequency), `Tone ${frequency}`)).id);
    }
    const keys: string[] = [];
    for (const id of ids) {
      const response = await server.get(`/api/v1/sounds/${id}/spectrogram.png?size=small`, { key });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      const sound = (await server.services.catalog.findById(id))!;
      keys.push(pictureKey(sound.contentHash, pictureSpec('spectrogram', 'small')));
      server.clock.advance(2000);
    }
    const sizes = await Promise.all(keys.map((fileKey) => server.services.files.size(fileKey)));
    const { bytes } = await server.services.renditions.stats();
    assert.ok(bytes <= 40_000, `${bytes} bytes kept`);
    assert.equal(sizes[0], null, `the first picture was removed (sizes ${sizes})`);
    assert.ok(sizes[2]! > 0, 'the newest is kept');
    // Asked again, the removed one is made again.
    const again = await server.get(`/api/v1/sounds/${ids[0]}/spectrogram.png?size=small`, { key });
    assert.equal(again.status, 200);
    assert.ok((await server.services.files.size(keys[0]!))! > 0);
  });
});
