import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AudioContent, CallToolResult, ImageContent } from '@modelcontextprotocol/sdk/types.js';
import { analyzeAudio } from '../../../src/audio/analyze/index.ts';
import { BACKGROUND } from '../../../src/audio/pictures/draw.ts';
import { decodeAudio } from '../../../src/audio/decode/index.ts';
import type { PcmAudio } from '../../../src/audio/types.ts';
import { renditionKey } from '../../../src/media/renditions.ts';
import { PREVIEW_LUFS, PREVIEW_SECONDS } from '../../../src/mcp/tools/preview-sound.ts';
import { pixelsOtherThan, readPng } from '../../audio/helpers/png.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { callTool, connectMcp, textOf } from '../mcp-client.ts';
import { addRealSound, tone } from '../real-sounds.ts';

describe('mcp.preview-sound: an agent hears a sound as a short, loudness-normalized MP3', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  let longId: string;
  let shortId: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    // Quiet (about -30 LUFS) and longer than a preview: the preview must cut it and raise it.
    ({ id: longId } = await addRealSound(server.services, tone(14, 0.05), 'Long Quiet Hum', ['hum']));
    // Loud and short: the preview must bring it down and keep all of it.
    ({ id: shortId } = await addRealSound(server.services, tone(1.5, 0.9, 880), 'Loud Beep', ['beep']));
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const audioOf = (result: CallToolResult): AudioContent => {
    const audio = result.content.find((item): item is AudioContent => item.type === 'audio');
    assert.ok(audio, `an audio item in ${JSON.stringify(result.content.map((item) => item.type))}`);
    return audio;
  };
  const decodedPreview = async (result: CallToolResult) => {
    const audio = audioOf(result);
    assert.equal(audio.mimeType, 'audio/mpeg');
    const decoded: PcmAudio = await decodeAudio(new Uint8Array(Buffer.from(audio.data, 'base64')));
    return { decoded, measured: analyzeAudio(decoded) };
  };
  const rms = (samples: Float32Array) =>
    Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / Math.max(1, samples.length));

  it('a long sound is cut to at most 10 s with a fade-out, at -16 LUFS within 1 LU and at most -1 dBTP', async () => {
    const result = await callTool(client, 'preview_sound', { id: longId });
    assert.notEqual(result.isError, true, textOf(result));
    const { decoded, measured } = await decodedPreview(result);
    assert.ok(measured.duration <= PREVIEW_SECONDS, `preview lasts ${measured.duration} s`);
    assert.ok(
      measured.duration >= PREVIEW_SECONDS - 0.05,
      `preview lasts ${measured.duration} s, cut at ${PREVIEW_SECONDS}`,
    );
    assert.ok(
      Math.abs(measured.loudness.integrated_lufs! - PREVIEW_LUFS) <= 1,
      `integrated ${measured.loudness.integrated_lufs} LUFS`,
    );
    assert.ok(measured.loudness.true_peak_db! <= -1, `true peak ${measured.loudness.true_peak_db} dBTP`);
    // The fade: the last 50 ms are far quieter than the second before the fade began.
    const samples = decoded.channels[0]!;
    const rate = decoded.sampleRate;
    const end = rms(samples.subarray(samples.length - Math.round(0.05 * rate)));
    const body = rms(
      samples.subarray(samples.length - Math.round(1.5 * rate), samples.length - Math.round(0.5 * rate)),
    );
    assert.ok(end < body / 4, `fades out: last 50 ms at ${end}, before the fade ${body}`);
  });

  it('a short sound is kept whole and brought down to the same loudness', async () => {
    const { measured } = await decodedPreview(await callTool(client, 'preview_sound', { id: shortId }));
    assert.ok(Math.abs(measured.duration - 1.5) < 0.05, `preview lasts ${measured.duration} s`);
    assert.ok(
      Math.abs(measured.loudness.integrated_lufs! - PREVIEW_LUFS) <= 1,
      `integrated ${measured.loudness.integrated_lufs} LUFS`,
    );
    assert.ok(measured.loudness.true_peak_db! <= -1);
  });

  it(
    "the answer also gives the sound's REST metadata and what the preview measures, text first, then audio, the " +
      'spectrogram, then the link',
    async () => {
      const result = await callTool(client, 'preview_sound', { id: longId });
      assert.deepEqual(
        result.content.map((item) => item.type),
        ['text', 'audio', 'image', 'resource_link'],
      );
      const { sound, preview } = result.structuredContent as {
        sound: unknown;
        preview: { mime_type: string; duration: number; loudness: { integrated_lufs: number } };
      };
      const rest = await server.get(`/api/v1/sounds/${longId}`, { key });
      assert.deepEqual(sound, ((await rest.json()) as { data: unknown }).data);
      assert.equal(preview.mime_type, 'audio/mpeg');
      const { measured } = await decodedPreview(result);
      assert.equal(preview.duration, measured.duration);
      assert.equal(preview.loudness.integrated_lufs, measured.loudness.integrated_lufs);
      assert.match(
        textOf(result),
        /^Preview: 10 s of MP3 at -1[56](\.\d)? LUFS, in the audio item; its spectrogram in the image\.\n/,
      );
      assert.match(textOf(result), /Long Quiet Hum \[id /);
    },
  );

  it('gives the small spectrogram as a PNG image item, the same picture as REST', async () => {
    const result = await callTool(client, 'preview_sound', { id: shortId });
    const image = result.content.find((item): item is ImageContent => item.type === 'image');
    assert.ok(image, 'an image item');
    assert.equal(image.mimeType, 'image/png');
    const png = new Uint8Array(Buffer.from(image.data, 'base64'));
    const read = readPng(png);
    assert.deepEqual([read.codec, read.width, read.height], ['png', 600, 150]);
    assert.ok(pixelsOtherThan(read, BACKGROUND) > 0, 'the beep is drawn');
    const rest = await server.get(`/api/v1/sounds/${shortId}/spectrogram.png?size=small`, { key });
    assert.deepEqual(new Uint8Array(await rest.arrayBuffer()), png);
  });

  it('is made once and kept in the media store beside the other renditions, by content and parameters', async () => {
    // Through the store and the renditions' counts, so this holds on a folder and on S3 alike.
    const keys = await Promise.all(
      [longId, shortId].map(async (id) => {
        const sound = (await server.services.catalog.findById(id))!;
        return renditionKey(sound.contentHash, { loudness: PREVIEW_LUFS, trim: true, maxSeconds: PREVIEW_SECONDS });
      }),
    );
    for (const key of keys) assert.ok(await server.services.files.stat(key), `one preview per sound: ${key}`);
    const made = (await server.services.renditions.stats()).made;
    const again = await callTool(client, 'preview_sound', { id: longId });
    const first = await callTool(client, 'preview_sound', { id: longId });
    assert.equal(audioOf(again).data, audioOf(first).data);
    assert.equal((await server.services.renditions.stats()).made, made, 'not made again');
  });

  it('an unknown id or bad arguments are error results, and the session goes on', async () => {
    const unknown = await callTool(client, 'preview_sound', { id: 'no-such-sound' });
    assert.equal(unknown.isError, true);
    assert.equal(textOf(unknown), 'Sound no-such-sound not found');
    const missing = await callTool(client, 'preview_sound', {});
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /id/);
    const extra = await callTool(client, 'preview_sound', { id: shortId, seconds: 3 });
    assert.equal(extra.isError, true);
    assert.notEqual((await callTool(client, 'preview_sound', { id: shortId })).isError, true);
  });
});
