import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { otherConnection } from '../../helpers/backend.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';

describe('details, stream, download and popular', () => {
  let server: TestServer;
  let key: string;
  let glass: string;
  let door: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    glass = (
      await addSound(server.services, {
        name: 'Glass Break Small',
        description: 'A small window pane shatters',
        tags: ['glass', 'break'],
      })
    ).id;
    door = (await addSound(server.services, { name: 'Door Slam' })).id;
    await addSound(server.services, { name: 'Never Downloaded' });
  });
  after(() => server.close());

  test('details.happy: one sound with every Sound field', async () => {
    const response = await server.get(`/api/v1/sounds/${glass}`, { key });
    assert.equal(response.status, 200);
    const { data } = await response.json();
    assert.equal(data.id, glass);
    assert.equal(data.name, 'Glass Break Small');
    assert.equal(data.description, 'A small window pane shatters');
    assert.deepEqual(data.tags, ['glass', 'break']);
    assert.equal(data.category, 'SFX');
    assert.equal(data.duration, 1.5);
    assert.ok(data.stream_url && data.download_url && data.timing && data.loudness);
  });

  test(
    'details.fresh: the same answer for every caller within a ' +
      'second; a change shows at once, made here or by another process',
    async () => {
      const other = await server.account('enterprise');
      const details = async (apiKey: string) => (await server.get(`/api/v1/sounds/${glass}`, { key: apiKey })).text();
      const texts = [await details(key), await details(other.key), await details(key)];
      assert.equal(new Set(texts).size, 1, 'the same bytes for every caller');
      const name = async () => JSON.parse(await details(key)).data.name as string;

      await server.services.database.db
        .updateTable('sounds')
        .set({ name: 'Glass Break Renamed' })
        .where('id', '=', glass)
        .execute();
      server.services.catalog.changed();
      assert.equal(await name(), 'Glass Break Renamed', 'a write of this process');

      const elsewhere = await otherConnection(server.dataDir);
      try {
        await elsewhere.run('UPDATE sounds SET name = ? WHERE id = ?', 'Glass Break Small', glass);
      } finally {
        await elsewhere.close();
      }
      assert.equal(await name(), 'Glass Break Small', 'a write of another connection');
    },
  );

  test('details.errors: an unknown id is 404 with a not-found message on every id route', async () => {
    for (const suffix of ['', '/stream', '/download']) {
      const response = await server.get(`/api/v1/sounds/no-such-sound${suffix}`, { key });
      assert.equal(response.status, 404);
      assert.deepEqual(await response.json(), { error: 'Sound no-such-sound not found' });
    }
  });

  test('stream.happy: a signed stream URL, and streaming counts no download', async () => {
    const response = await server.get(`/api/v1/sounds/${door}/stream`, { key });
    assert.equal(response.status, 200);
    const { data } = await response.json();
    assert.deepEqual(Object.keys(data).sort(), ['id', 'name', 'stream_url']);
    assert.equal((await fetch(data.stream_url)).status, 200);
    const popular = await (await server.get('/api/v1/sounds/popular', { key })).json();
    assert.equal(popular.data.find((s: { id: string }) => s.id === door).numDownloads, 0);
  });

  test('download.happy: each call counts one download, atomically, and popular ranks by it', async () => {
    const response = await server.get(`/api/v1/sounds/${glass}/download`, { key });
    assert.equal(response.status, 200);
    const { data } = await response.json();
    assert.deepEqual(Object.keys(data).sort(), ['download_url', 'expires_in', 'id', 'name']);
    assert.equal(data.expires_in, 3600);
    await Promise.all(Array.from({ length: 20 }, () => server.get(`/api/v1/sounds/${glass}/download`, { key })));
    await Promise.all(Array.from({ length: 5 }, () => server.get(`/api/v1/sounds/${door}/download`, { key })));
    const popular = await (await server.get('/api/v1/sounds/popular', { key })).json();
    assert.deepEqual(
      popular.data.slice(0, 2).map((s: { id: string; numDownloads: number }) => [s.id, s.numDownloads]),
      [
        [glass, 21],
        [door, 5],
      ],
    );
    assert.equal(popular.data[2].numDownloads, 0);
    assert.deepEqual(popular.pagination, { page: 1, limit: 30, total: 3, totalPages: 1 });
    assert.ok(popular.data[0].timing && popular.data[0].loudness && popular.data[0].download_url);
  });

  test('popular.lenient: limit is clamped to 1..100 and bad values use the default', async () => {
    for (const [query, limit] of [
      ['limit=0', 1],
      ['limit=500', 100],
      ['limit=x', 30],
      ['limit=2', 2],
      ['other=1', 30],
    ] as const) {
      const response = await server.get(`/api/v1/sounds/popular?${query}`, { key });
      assert.equal(response.status, 200, query);
      assert.equal((await response.json()).pagination.limit, limit, query);
    }
  });
  test(
    'download.fresh: a download reorders the downloads list before it ' +
      'is answered; a change no service was told of shows within a second',
    async () => {
      const { id } = await addSound(server.services, { name: 'Fresh Probe', tags: ['fresh-probe'] });
      const { id: other } = await addSound(server.services, { name: 'Fresh Probe Other', tags: ['fresh-probe'] });
      const names = async (query: string) =>
        ((await (await server.get(`/api/v1/sounds?${query}`, { key })).json()).data as Array<{ name: string }>).map(
          (s) => s.name,
        );
      assert.equal((await server.get(`/api/v1/sounds/${other}/download`, { key })).status, 200);
      assert.deepEqual(await names('tags=fresh-probe&sort=downloads'), ['Fresh Probe Other', 'Fresh Probe']);
      // Renamed behind the services' back (a write no service is told of), then downloaded twice.
      await server.services.database.db
        .updateTable('sounds')
        .set({ name: 'Fresh Probe Renamed' })
        .where('id', '=', id)
        .execute();
      for (let i = 0; i < 2; i++)
        assert.equal((await server.get(`/api/v1/sounds/${id}/download`, { key })).status, 200);
      assert.equal(
        (await names('tags=fresh-probe&sort=downloads'))[1],
        'Fresh Probe Other',
        'the downloads order at once: the other one is second',
      );
      const deadline = Date.now() + 1000;
      while ((await names('tags=fresh-probe&sort=downloads'))[0] !== 'Fresh Probe Renamed' && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(
        await names('tags=fresh-probe&sort=downloads'),
        ['Fresh Probe Renamed', 'Fresh Probe Other'],
        'the rename within a second',
      );
      assert.deepEqual(await names('tags=fresh-probe&sort=name&order=asc'), [
        'Fresh Probe Other',
        'Fresh Probe Renamed',
      ]);
    },
  );
});
