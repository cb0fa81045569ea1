import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { addSound } from '../../helpers/sounds.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';

interface SearchAnswer {
  data: Array<{ id: string; name: string }>;
  pagination: { total: number; next_cursor: string | null };
}

describe('sync for mirrors', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
  });
  after(() => server.close());

  const get = async <T>(path: string) => {
    const response = await server.get(path, { key });
    return { status: response.status, body: (await response.json()) as T };
  };
  const remove = async (id: string) => {
    await server.services.database.db.deleteFrom('sounds').where('id', '=', id).execute();
    await server.services.catalog.changed();
  };

  test(
    'sync.walk: a cursor walk through HTTP sees every sound present ' +
      'throughout exactly once while sounds are added and removed between pages',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 12 }),
          fc.array(fc.record({ limit: fc.integer({ min: 1, max: 5 }), add: fc.nat(2), remove: fc.nat(2) }), {
            minLength: 1,
            maxLength: 8,
          }),
          async (initial, steps) => {
            const tag = `walk${Math.random().toString(36).slice(2, 8)}`;
            const present = new Set<string>();
            for (let i = 0; i < initial; i++)
              present.add((await addSound(server.services, { name: `Walk ${i}`, tags: [tag] })).id);
            const throughout = new Set(present);
            const seen: string[] = [];
            let cursor = '';
            for (let i = 0; ; i++) {
              const step = steps[i] ?? { limit: 5, add: 0, remove: 0 };
              const { status, body } = await get<SearchAnswer>(
                `/api/v1/sounds?tags=${tag}&limit=${step.limit}&cursor=${cursor}`,
              );
              assert.equal(status, 200);
              assert.ok(body.data.length <= step.limit);
              seen.push(...body.data.map((sound) => sound.id));
              if (body.pagination.next_cursor === null) break;
              cursor = body.pagination.next_cursor;
              for (let n = 0; n < step.add; n++)
                present.add((await addSound(server.services, { name: `Walk new ${i}.${n}`, tags: [tag] })).id);
              for (let n = 0; n < step.remove && present.size > 0; n++) {
                const id = [...present][(i * 7 + n * 3) % present.size]!;
                present.delete(id);
                throughout.delete(id);
                await remove(id);
              }
            }
            assert.equal(new Set(seen).size, seen.length, 'no sound twice');
            for (const id of throughout) assert.ok(seen.includes(id), `${id} was present throughout and seen`);
          },
        ),
        { numRuns: 15 },
      );
    },
  );

  test(
    'sync.cursor-errors: a forged or foreign cursor, ' + 'and sort, order or page beside one, are clear 400s',
    async () => {
      const first = await get<SearchAnswer>('/api/v1/sounds?cursor=&limit=1');
      assert.equal(first.status, 200);
      for (const bad of [
        'abc',
        'czEuLTE',
        'czEuMDE',
        '%00',
        'x'.repeat(65),
        Buffer.from('s1.99999999999999999').toString('base64url'),
        Buffer.from('c1.1').toString('base64url'),
      ]) {
        const { status, body } = await get<{ error: string; details: Array<{ param: string }> }>(
          `/api/v1/sounds?cursor=${bad}`,
        );
        assert.equal(status, 400, bad);
        assert.deepEqual(
          body.details.map((detail) => detail.param),
          ['cursor'],
          bad,
        );
      }
      for (const param of ['sort=name', 'order=asc', 'page=2']) {
        const { status, body } = await get<{ error: string; details: Array<{ param: string }> }>(
          `/api/v1/sounds?cursor=&${param}`,
        );
        assert.equal(status, 400, param);
        assert.deepEqual(
          body.details.map((detail) => detail.param),
          [param.split('=')[0]],
        );
      }
      const paged = await get<SearchAnswer>('/api/v1/sounds?page=1&limit=1');
      assert.deepEqual(
        Object.keys(paged.body.pagination),
        ['page', 'limit', 'total', 'totalPages'],
        "a page asked by number has the API document's pagination, without next_cursor",
      );
    },
  );

  test('sync.updated-since: only sounds whose record changed at or after the time', async () => {
    server.clock.advance(60_000);
    const since = new Date(server.clock.now).toISOString();
    const { id } = await addSound(server.services, { name: 'Fresh sound', tags: ['fresh'] });
    const { body } = await get<SearchAnswer>(`/api/v1/sounds?updated_since=${encodeURIComponent(since)}&limit=100`);
    assert.deepEqual(
      body.data.map((sound) => sound.id),
      [id],
    );
    const later = await get<SearchAnswer>(
      `/api/v1/sounds?updated_since=${encodeURIComponent(new Date(server.clock.now + 1).toISOString())}`,
    );
    assert.deepEqual(later.body.data, []);
    assert.equal((await get('/api/v1/sounds?updated_since=yesterday')).status, 400);
    assert.equal((await get('/api/v1/sounds?updated_since=2026-06-15')).status, 200);
  });

  test(
    'sync.changes: added, updated and removed in order, followed page by page; ' +
      'a cursor the log no longer reaches is a 410 with where to follow from',
    async () => {
      let since = '';
      // Read to the end first: what follows is this test's own changes.
      for (;;) {
        const { status, body } = await get<{ data: unknown[]; next_cursor: string }>(
          `/api/v1/changes?limit=1000${since && `&since=${since}`}`,
        );
        assert.equal(status, 200);
        since = body.next_cursor;
        if (body.data.length === 0) break;
      }
      const { id } = await addSound(server.services, { name: 'Changing', tags: ['changes'] });
      await server.services.catalogWriter.updateMetadata((await server.services.catalog.findById(id))!.contentHash, {
        name: 'Changed',
        description: null,
        tags: ['changes'],
        category: 'SFX',
        license: 'CC0',
        sample: false,
      });
      await remove(id);
      const changes: Array<{ id: string; change: string; at: string }> = [];
      for (;;) {
        const { status, body } = await get<{ data: typeof changes; next_cursor: string }>(
          `/api/v1/changes?since=${since}&limit=1`,
        );
        assert.equal(status, 200);
        assert.ok(body.data.length <= 1);
        since = body.next_cursor;
        if (body.data.length === 0) break;
        changes.push(...body.data);
      }
      assert.deepEqual(
        changes.map((change) => [change.id, change.change]),
        [
          [id, 'added'],
          [id, 'updated'],
          [id, 'removed'],
        ],
      );
      for (const change of changes)
        assert.ok(!Number.isNaN(Date.parse(change.at)) && change.at.endsWith('Z'), change.at);

      // The log is pruned: a reader behind what is kept is told so, never given a page with a hole.
      // As the feed prunes: the oldest rows go, the newest stay; here, the first change after `since` goes.
      await addSound(server.services, { name: 'Pruned away' });
      await addSound(server.services, { name: 'After the prune' });
      const { db } = server.services.database;
      const newest = await db
        .selectFrom('catalog_changes')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirstOrThrow();
      await db.deleteFrom('catalog_changes').where('seq', '<', Number(newest.seq)).execute();
      const gone = await get<{ error: string; next_cursor: string }>(`/api/v1/changes?since=${since}`);
      assert.equal(gone.status, 410);
      assert.match(gone.body.error, /walk the catalog again/);
      const fromStart = await get<{ error: string; next_cursor: string }>('/api/v1/changes');
      assert.equal(fromStart.status, 410);
      const followed = await get<{ data: unknown[]; next_cursor: string }>(
        `/api/v1/changes?since=${gone.body.next_cursor}`,
      );
      assert.equal(followed.status, 200);
      assert.deepEqual(followed.body.data, []);
      for (const bad of ['abc', Buffer.from('s1.1').toString('base64url')])
        assert.equal((await get(`/api/v1/changes?since=${bad}`)).status, 400);
      assert.equal((await get('/api/v1/changes?limit=1001')).status, 400);
      assert.equal((await server.get('/api/v1/changes')).status, 401);
    },
  );
});
