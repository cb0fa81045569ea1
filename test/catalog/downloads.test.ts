import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SOUNDS_PER_STATEMENT } from '../../src/catalog/download-counts.ts';
import { onPostgres, otherConnection } from '../helpers/backend.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

interface Listed {
  id: string;
  numDownloads: number;
}

/**
 * How long another instance may take to see a download: its next read of the counts (every 0.1 s), on a busy machine.
 */
const SEEN_ELSEWHERE_MS = 1000;

/** A sound's count as stored, by id (0 when it has no row: never downloaded). */
const STORED_COUNT =
  `SELECT coalesce(d.count, 0) AS n FROM sounds s LEFT JOIN ` +
  `sound_downloads d ON d.sound_seq = s.seq WHERE s.id = ?`;

describe('downloads: each committed before it is answered, in sound_downloads, never in the change log', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('enterprise'));
  });
  after(() => server.close());

  const download = async (id: string) => {
    const response = await server.get(`/api/v1/sounds/${id}/download`, { key });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  };
  /** The popular list (the one answer that shows counts), narrowed to these sounds. */
  const popular = async (on: TestServer, ids: string[], asKey = key): Promise<Listed[]> => {
    const body = (await (await on.get('/api/v1/sounds/popular?limit=100', { key: asKey })).json()) as {
      data: Listed[];
    };
    return body.data.filter(({ id }) => ids.includes(id)).map(({ id, numDownloads }) => ({ id, numDownloads }));
  };
  const stored = async (on: TestServer, id: string): Promise<number> => {
    const connection = await otherConnection(on.dataDir, { readonly: true });
    try {
      const [row] = await connection.all<{ n: number | string }>(STORED_COUNT, id);
      return Number(row!.n);
    } finally {
      await connection.close();
    }
  };

  /** The change log's newest number, and the changes a mirror reads after a number. */
  const newestChange = async (connection: Awaited<ReturnType<typeof otherConnection>>) =>
    Number(
      (await connection.all<{ n: number | string | null }>('SELECT max(seq) AS n FROM catalog_changes'))[0]!.n ?? 0,
    );

  test('downloads.same-process: a download is stored when it is answered, and reorders popular at once', async () => {
    const { id: first } = await addSound(server.services, { name: 'Same Process First', tags: ['same-process'] });
    const { id: second } = await addSound(server.services, { name: 'Same Process Second', tags: ['same-process'] });
    await download(first);
    assert.equal(await stored(server, first), 1, 'stored before the answer');
    for (let n = 0; n < 3; n++) {
      await download(second);
      assert.equal(await stored(server, second), n + 1);
    }
    assert.deepEqual(await popular(server, [first, second]), [
      { id: second, numDownloads: 3 },
      { id: first, numDownloads: 1 },
    ]);
  });

  test(
    'downloads.change-log: 20,000 downloads over REST ' + 'are all counted and leave the change log unchanged',
    async () => {
      const own = await startServer();
      const { key: ownKey } = await own.account('enterprise');
      const ids: string[] = [];
      for (let n = 0; n < 6; n++)
        ids.push((await addSound(own.services, { name: `Change Log ${n}`, tags: ['change-log'] })).id);
      const connection = await otherConnection(own.dataDir, { readonly: true });
      try {
        const from = await newestChange(connection);
        // A mirror that has read every change so far.
        let since = '';
        for (;;) {
          const page = (await (await own.get(`/api/v1/changes?limit=100${since}`, { key: ownKey })).json()) as {
            data: unknown[];
            next_cursor: string;
          };
          since = `&since=${page.next_cursor}`;
          if (page.data.length === 0) break;
        }
        let next = 0;
        const answered = new Map<string, number>();
        // 50 clients at a time, as a busy service has them.
        await Promise.all(
          Array.from({ length: 50 }, async () => {
            while (next < 20_000) {
              const id = ids[next++ % ids.length]!;
              const response = await own.get(`/api/v1/sounds/${id}/download`, { key: ownKey });
              assert.equal(response.status, 200);
              await response.arrayBuffer();
              answered.set(id, (answered.get(id) ?? 0) + 1);
            }
          }),
        );
        for (const id of ids) assert.equal(await stored(own, id), answered.get(id), `every download of ${id} stored`);
        assert.equal(await newestChange(connection), from, 'no row added to the change log');
        const polled = await own.get(`/api/v1/changes?limit=100${since}`, { key: ownKey });
        assert.equal(polled.status, 200);
        assert.deepEqual(
          ((await polled.json()) as { data: unknown[] }).data,
          [],
          'a mirror polling the changes reads nothing new',
        );
        const ranked = await popular(own, ids, ownKey);
        assert.deepEqual(ranked.map((sound) => sound.numDownloads).sort(), ids.map((id) => answered.get(id)).sort());
      } finally {
        await connection.close();
        await own.close();
      }
    },
  );

  test(
    'downloads.many: counts for more sounds than one statement ' +
      'takes are each added exactly, none in the change log',
    async () => {
      // A server of its own: a thousand sounds with downloads would crowd the others' popular lists.
      const own = await startServer();
      const sounds = SOUNDS_PER_STATEMENT + 20;
      const ids: string[] = [];
      for (let n = 0; n < sounds; n++)
        ids.push((await addSound(own.services, { name: `Many ${n}`, tags: ['many'] })).id);
      const connection = await otherConnection(own.dataDir, { readonly: true });
      try {
        const from = await newestChange(connection);
        // One, two or three downloads a sound, all in the same turns.
        const expected = new Map(ids.map((id, n) => [id, (n % 3) + 1]));
        await Promise.all(
          [...expected].flatMap(([id, count]) =>
            Array.from({ length: count }, () => own.services.catalog.countDownload(id)),
          ),
        );
        const counts = new Map(
          (
            await connection.all<{ id: string; n: number | string }>(
              `SELECT s.id, d.count AS n FROM sounds s JOIN sound_downloads d ON ` +
                `d.sound_seq = s.seq WHERE s.id IN (${ids.map(() => '?').join(', ')})`,
              ...ids,
            )
          ).map((row) => [row.id, Number(row.n)]),
        );
        for (const id of ids) assert.equal(counts.get(id), expected.get(id), id);
        assert.equal(await newestChange(connection), from, 'no row added to the change log');
      } finally {
        await connection.close();
        await own.close();
      }
    },
  );

  test('downloads.removed: a download of a sound removed since it was looked up counts nothing', async () => {
    const own = await startServer();
    try {
      const { id } = await addSound(own.services, { name: 'Removed Meanwhile', tags: ['removed'] });
      const connection = await otherConnection(own.dataDir);
      try {
        const counting = own.services.catalog.countDownload(id);
        await connection.run('DELETE FROM sounds WHERE id = ?', id);
        // Looked up before the delete or after it: either way no count is left behind.
        await counting;
        const [row] = await connection.all<{ n: number | string }>('SELECT count(*) AS n FROM sound_downloads');
        assert.equal(Number(row!.n), 0);
      } finally {
        await connection.close();
      }
    } finally {
      await own.close();
    }
  });

  test(
    'downloads.other-instance: another instance on the ' + 'same database ranks by the downloads within a second',
    async () => {
      const other = await startServer({ dataDir: server.dataDir });
      try {
        const { id: first } = await addSound(server.services, { name: 'Elsewhere First', tags: ['other-instance'] });
        const { id: second } = await addSound(server.services, { name: 'Elsewhere Second', tags: ['other-instance'] });
        await eventually(
          () => popular(other, [first, second]),
          (list) => list.length === 2,
          SEEN_ELSEWHERE_MS,
          'the other instance sees the sounds',
        );
        await download(first);
        for (let n = 0; n < 5; n++) await download(second);
        await eventually(
          () => popular(other, [first, second]),
          (list) => list[0]?.id === second && list[0].numDownloads === 5 && list[1]?.numDownloads === 1,
          SEEN_ELSEWHERE_MS,
          'the other instance ranks by the stored counts',
        );
        // Its own downloads add to those, at once.
        for (let n = 0; n < 6; n++) {
          const response = await other.get(`/api/v1/sounds/${first}/download`, { key });
          assert.equal(response.status, 200);
        }
        assert.deepEqual(await popular(other, [first, second]), [
          { id: first, numDownloads: 7 },
          { id: second, numDownloads: 5 },
        ]);
        await eventually(
          () => popular(server, [first, second]),
          (list) => list[0]?.id === first && list[0].numDownloads === 7,
          SEEN_ELSEWHERE_MS,
          'and back',
        );
      } finally {
        await other.close({ keepData: true });
      }
    },
  );

  test(
    'downloads.long-transaction: a transaction left open elsewhere holds no instance back, ' +
      'however many counts are committed after it',
    async () => {
      const own = await startServer();
      const { key: ownKey } = await own.account('pro');
      const other = await startServer({ dataDir: own.dataDir });
      const open = await otherConnection(own.dataDir);
      const bulk = await otherConnection(own.dataDir);
      try {
        const { id } = await addSound(own.services, { name: 'After The Crowd', tags: ['long-transaction'] });
        await eventually(
          () => popular(other, [id], ownKey),
          (list) => list.length === 1,
          SEEN_ELSEWHERE_MS,
          'the other instance sees the sound',
        );
        // A transaction that stays open (a backup's, say), older than every count below.
        await open.run('BEGIN');
        await open.all(onPostgres ? 'SELECT pg_current_xact_id() AS id' : 'SELECT count(*) AS n FROM sounds');
        // More counts in one commit than an instance reads at once (CHANGES_PER_READ), then ours.
        const crowd = 10_001;
        await bulk.run('BEGIN');
        await bulk.run(
          'INSERT INTO sounds (id, name, tags, duration, content_hash, file_key, file_size, created_at, updated_at) ' +
            'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ' +
            "SELECT 'crowd-' || i, 'Crowd ' || i, '[]', 1, 'crowd-hash-' || i, 'crowd/' || i, 1, " +
            "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n",
          crowd,
        );
        const version = onPostgres
          ? 'CAST(CAST(pg_current_xact_id() AS text) AS bigint)'
          : String(
              Number(
                (await bulk.all<{ v: number }>('SELECT coalesce(max(version), 0) + 1 AS v FROM sound_downloads'))[0]!.v,
              ),
            );
        await bulk.run(
          `INSERT INTO sound_downloads (sound_seq, count, version) SELECT seq, 1, ${version} FROM sounds ` +
            "WHERE id LIKE 'crowd-%'",
        );
        await bulk.run('COMMIT');
        for (let n = 0; n < 3; n++) {
          const response = await own.get(`/api/v1/sounds/${id}/download`, { key: ownKey });
          assert.equal(response.status, 200);
        }
        await eventually(
          () => popular(other, [id], ownKey),
          (list) => list[0]?.numDownloads === 3,
          5 * SEEN_ELSEWHERE_MS,
          'the other instance reads the counts after the crowd',
        );
      } finally {
        await open.run('ROLLBACK').catch(() => {});
        await open.close();
        await bulk.close();
        await other.close({ keepData: true });
        await own.close();
      }
    },
  );

  test('downloads.restart: a restart shows every download answered before it', async () => {
    const restartable = await startServer();
    const { key: ownKey } = await restartable.account('pro');
    const { id } = await addSound(restartable.services, { name: 'Shutdown Bell', tags: ['shutdown'] });
    const responses = await Promise.all(
      Array.from({ length: 7 }, () => restartable.get(`/api/v1/sounds/${id}/download`, { key: ownKey })),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      Array(7).fill(200),
    );
    await restartable.close({ keepData: true });
    assert.equal(await stored(restartable, id), 7);
    const restarted = await startServer({ dataDir: restartable.dataDir });
    try {
      const body = (await (await restarted.get('/api/v1/sounds/popular?limit=1', { key: ownKey })).json()) as {
        data: Listed[];
      };
      assert.deepEqual(
        body.data.map(({ id, numDownloads }) => ({ id, numDownloads })),
        [{ id, numDownloads: 7 }],
      );
    } finally {
      await restarted.close();
    }
  });

  test('downloads.errors: an unknown sound is 404 and counts nothing', async () => {
    const response = await server.get('/api/v1/sounds/no-such-sound/download', { key });
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { error: 'Sound no-such-sound not found' });
  });
});
