import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { contentHashOf } from '../../src/catalog/writer.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { needsFfmpeg } from '../audio/helpers/ffmpeg.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { tone } from '../mcp/real-sounds.ts';

const run = promisify(execFile);

describe('packs.sprite.loop: a sound that loops is a loop in both sprite maps', needsFfmpeg, () => {
  let server: TestServer;
  let key: string;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    for (const [name, hz, loop] of [
      ['Drone Loop', 220, true],
      ['Bell Hit', 880, false],
    ] as const) {
      const { mp3, measurements } = await encodeAndMeasure(tone(1, 0.3, hz));
      ({ id: ids[name] } = await server.services.catalogWriter.put({
        contentHash: contentHashOf(mp3),
        mp3,
        measurements,
        metadata: {
          name,
          description: null,
          tags: [],
          category: 'SFX',
          license: 'CC0',
          sample: false,
          loop: loop ? { startSample: 0, endSample: 44_100 } : null,
        },
      }));
    }
  });
  after(() => server.close());

  test('packs.sprite.loop: Howler gives the loop a third element true, Phaser loop: true; the other none', async () => {
    const answer = await server.get(`/api/v1/packs?ids=${ids['Drone Loop']},${ids['Bell Hit']}&sprite=true`, { key });
    assert.equal(answer.status, 200, await answer.clone().text());
    const { download_url } = ((await answer.json()) as { data: { download_url: string } }).data;
    const zip = path.join(server.dataDir, 'loop-sprite.zip');
    await writeFile(zip, new Uint8Array(await (await fetch(download_url)).arrayBuffer()));
    const entry = async (name: string) => JSON.parse((await run('unzip', ['-p', zip, name])).stdout);
    const howler = (await entry('sprite.howler.json')) as { sprite: Record<string, [number, number, boolean?]> };
    const phaser = (await entry('sprite.phaser.json')) as { spritemap: Record<string, { loop: boolean }> };
    const keyOf = (id: string) => Object.keys(howler.sprite).find((name) => name.endsWith(id))!;
    assert.equal(howler.sprite[keyOf(ids['Drone Loop']!)]![2], true);
    assert.equal(howler.sprite[keyOf(ids['Bell Hit']!)]!.length, 2);
    assert.equal(phaser.spritemap[keyOf(ids['Drone Loop']!)]!.loop, true);
    assert.equal(phaser.spritemap[keyOf(ids['Bell Hit']!)]!.loop, false);
  });
});
