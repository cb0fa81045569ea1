import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../helpers/cli.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';

describe('sample endpoints', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startServer();
    ids.rain = (
      await addSound(server.services, {
        name: 'Soft Rain',
        description: 'Gentle rain on a window',
        tags: ['rain', 'ambient'],
        sample: true,
        category: 'AMBIENT',
      })
    ).id;
    ids.laser = (
      await addSound(server.services, {
        name: 'Laser Zap',
        description: 'A short sci-fi zap',
        tags: ['laser', 'sci-fi'],
        sample: true,
      })
    ).id;
    ids.coin = (await addSound(server.services, { name: 'Coin Pickup', tags: ['coin', 'game'], sample: true })).id;
    ids.hidden = (await addSound(server.services, { name: 'Laser Beam Private', tags: ['laser'], sample: false })).id;
    for (let i = 0; i < 12; i++)
      await addSound(server.services, { name: `Filler ${i}`, tags: ['filler'], sample: true });
  });
  after(() => server.close());

  test('samples.happy: lists only sample sounds, at most 12, with signed stream URLs and no download URL', async () => {
    const response = await server.get('/api/v1/sounds/sample');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = await response.json();
    assert.equal(body.data.length, 12);
    assert.deepEqual(body.pagination, { page: 1, limit: 12, total: 15, totalPages: 2 });
    assert.equal(typeof body.meta.message, 'string');
    assert.match(body.meta.upgrade_url, /^http:\/\//);
    for (const sound of body.data) {
      assert.deepEqual(Object.keys(sound).sort(), ['description', 'duration', 'id', 'name', 'stream_url', 'tags']);
      assert.match(sound.stream_url, /\/media\/.+\?d=stream&exp=\d+&kid=.+&sig=.+/);
      assert.notEqual(sound.id, ids.hidden);
    }
  });

  test('samples.filters: q matches name or description case-insensitively; tags use OR', async () => {
    const byDescription = await (await server.get('/api/v1/sounds/sample?q=WINDOW')).json();
    assert.deepEqual(
      byDescription.data.map((s: { id: string }) => s.id),
      [ids.rain],
    );
    const twoWords = await (await server.get('/api/v1/sounds/sample?q=laser%20zap')).json();
    assert.deepEqual(
      twoWords.data.map((s: { id: string }) => s.id),
      [ids.laser],
    );
    const anyTag = await (await server.get('/api/v1/sounds/sample?tags=coin,rain')).json();
    assert.deepEqual(anyTag.data.map((s: { id: string }) => s.id).sort(), [ids.coin, ids.rain].sort());
    assert.equal(anyTag.pagination.total, 2);
  });

  test(
    'samples.lenient: out-of-range and malformed limits ' + 'are clamped or defaulted, unknown params ignored',
    async () => {
      const cases: Array<[string, number]> = [
        ['limit=50', 12],
        ['limit=0', 1],
        ['limit=-3', 1],
        ['limit=abc', 12],
        ['limit=5', 5],
        ['limit=', 12],
        ['limit=2&limit=3', 12],
      ];
      for (const [query, expected] of cases) {
        const response = await server.get(`/api/v1/sounds/sample?${query}&unknown=1`);
        assert.equal(response.status, 200, query);
        const body = await response.json();
        assert.equal(body.pagination.limit, expected, query);
        assert.equal(body.data.length, expected, query);
      }
    },
  );

  test('samples.stream: a sample gets a signed stream URL; a non-sample or unknown id is 404', async () => {
    const response = await server.get(`/api/v1/sounds/sample/${ids.laser}/stream`);
    assert.equal(response.status, 200);
    const { data } = await response.json();
    assert.deepEqual(Object.keys(data).sort(), ['id', 'name', 'stream_url']);
    assert.equal(data.name, 'Laser Zap');
    const audio = await fetch(data.stream_url);
    assert.equal(audio.status, 200);
    assert.equal(audio.headers.get('content-type'), 'audio/mpeg');

    for (const id of [ids.hidden, 'does-not-exist']) {
      const missing = await server.get(`/api/v1/sounds/sample/${id}/stream`);
      assert.equal(missing.status, 404);
      assert.match((await missing.json()).error, /not found/);
    }
  });
  test(
    'samples.external: a change another process commits ' + '(the samples command) is served within a second',
    async () => {
      const listed = async () =>
        ((await (await server.get('/api/v1/sounds/sample?q=laser')).json()).data as Array<{ id: string }>).map(
          (s) => s.id,
        );
      assert.deepEqual(await listed(), [ids.laser]);
      const keep = Object.values(ids).filter((id) => id !== ids.laser);
      const command = await runCli(['samples', 'set', ...keep, '--json'], {
        SOUND_CATALOG_DATA: server.dataDir,
        SOUND_CATALOG_DEMO: '0',
      });
      assert.equal(command.status, 0, command.stderr);
      await eventually(
        listed,
        (found) => found.length === 1 && found[0] === ids.hidden,
        1000,
        'the new samples are served',
      );
      await runCli(['samples', 'set', ids.rain!, ids.laser!, ids.coin!, '--json'], {
        SOUND_CATALOG_DATA: server.dataDir,
        SOUND_CATALOG_DEMO: '0',
      });
    },
  );
});
