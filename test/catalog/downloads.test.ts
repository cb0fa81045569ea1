import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FLUSH_INTERVAL_MS } from '../../src/catalog/pending-downloads.ts';
import { DOWNLOADS_PER_STATEMENT } from '../../src/catalog/store.ts';
import { otherConnection } from '../helpers/backend.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

interface Listed { id: string; numDownloads: number }

/** How long another instance may take to see a download: the flush, then its next read of the feed, with room for a busy machine. */
const SEEN_ELSEWHERE_MS = FLUSH_INTERVAL_MS * 5;

describe('downloads: counted in memory, written once a second in one transaction', () => {
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
  const popular = async (on: TestServer, ids: string[]): Promise<Listed[]> => {
    const body = await (await on.get('/api/v1/sounds/popular?limit=100', { key })).json() as { data: Listed[] };
    return body.data.filter(({ id }) => ids.includes(id)).map(({ id, numDownloads }) => ({ id, numDownloads }));
  };
  const stored = async (on: TestServer, id: string): Promise<number> => {
    const connection = await otherConnection(on.dataDir, { readonly: true });
    try {
      const [row] = await connection.all<{ n: number | string }>('SELECT num_downloads AS n FROM sounds WHERE id = ?', id);
      return Number(row!.n);
    } finally {
      await connection.close();
    }
  };

  test('downloads.same-process: a download reorders popular at once, and reaches the database with the flush', async () => {
    const { id: first } = await addSound(server.services, { name: 'Same Process First', tags: ['same-process'] });
    const { id: second } = await addSound(server.services, { name: 'Same Process Second', tags: ['same-process'] });
    await download(first);
    for (let n = 0; n < 3; n++) await download(second);
    assert.deepEqual(await popular(server, [first, second]), [{ id: second, numDownloads: 3 }, { id: first, numDownloads: 1 }]);
    await eventually(() => stored(server, second), (n) => n === 3, SEEN_ELSEWHERE_MS, 'the flush writes the count');
    assert.equal(await stored(server, first), 1);
    // Written and pending are never counted twice.
    await download(second);
    assert.deepEqual(await popular(server, [first, second]), [{ id: second, numDownloads: 4 }, { id: first, numDownloads: 1 }]);
  });

  test('downloads.concurrent: concurrent downloads over REST are all counted, and the change log gets at most one row per sound per flush', async () => {
    const { id: busy } = await addSound(server.services, { name: 'Concurrent Busy', tags: ['concurrent'] });
    const { id: quiet } = await addSound(server.services, { name: 'Concurrent Quiet', tags: ['concurrent'] });
    const connection = await otherConnection(server.dataDir, { readonly: true });
    try {
      const newest = async () => Number((await connection.all<{ n: number | string | null }>('SELECT max(seq) AS n FROM catalog_changes'))[0]!.n ?? 0);
      const from = await newest();
      const started = performance.now();
      await Promise.all([...Array.from({ length: 40 }, () => download(busy)), ...Array.from({ length: 10 }, () => download(quiet))]);
      assert.deepEqual(await popular(server, [busy, quiet]), [{ id: busy, numDownloads: 40 }, { id: quiet, numDownloads: 10 }]);
      await eventually(async () => [await stored(server, busy), await stored(server, quiet)], ([a, b]) => a === 40 && b === 10, SEEN_ELSEWHERE_MS);
      const elapsed = performance.now() - started;
      const rows = await connection.all<{ sound_seq: number }>('SELECT sound_seq FROM catalog_changes WHERE seq > ?', from);
      const seqs = await connection.all<{ seq: number; id: string }>('SELECT seq, id FROM sounds WHERE id IN (?, ?)', busy, quiet);
      const rowsOf = (id: string) => {
        const seq = Number(seqs.find((row) => row.id === id)!.seq);
        return rows.filter((row) => Number(row.sound_seq) === seq).length;
      };
      // Flushes run at most once per interval: however slow the machine, the rows stay far below the 40 downloads.
      const flushes = Math.floor(elapsed / FLUSH_INTERVAL_MS) + 1;
      assert.ok(rowsOf(busy) >= 1 && rowsOf(busy) <= flushes, `${rowsOf(busy)} log rows for 40 downloads, over at most ${flushes} flushes`);
      assert.ok(rowsOf(quiet) >= 1 && rowsOf(quiet) <= flushes, `${rowsOf(quiet)} log rows for 10 downloads, over at most ${flushes} flushes`);
    } finally {
      await connection.close();
    }
  });

  test('downloads.many: counts for more sounds than one statement takes are each added exactly, and each sound is in the change log', async () => {
    // A server of its own: a thousand sounds with downloads would crowd the others' popular lists.
    const own = await startServer();
    const sounds = DOWNLOADS_PER_STATEMENT + 20;
    const ids: string[] = [];
    for (let n = 0; n < sounds; n++) ids.push((await addSound(own.services, { name: `Many ${n}`, tags: ['many'] })).id);
    const connection = await otherConnection(own.dataDir, { readonly: true });
    try {
      const newest = async () => Number((await connection.all<{ n: number | string | null }>('SELECT max(seq) AS n FROM catalog_changes'))[0]!.n ?? 0);
      const from = await newest();
      // One, two or three downloads a sound.
      const expected = new Map(ids.map((id, n) => [id, (n % 3) + 1]));
      await Promise.all([...expected].flatMap(([id, count]) => Array.from({ length: count }, () => own.services.catalog.countDownload(id))));
      const read = async () => new Map((await connection.all<{ id: string; n: number | string }>(
        `SELECT id, num_downloads AS n FROM sounds WHERE id IN (${ids.map(() => '?').join(', ')})`, ...ids,
      )).map((row) => [row.id, Number(row.n)]));
      await eventually(read, (counts) => ids.every((id) => counts.get(id) === expected.get(id)), SEEN_ELSEWHERE_MS, 'every count written');
      const logged = await connection.all<{ n: number | string }>('SELECT count(DISTINCT sound_seq) AS n FROM catalog_changes WHERE seq > ?', from);
      assert.equal(Number(logged[0]!.n), sounds, 'every sound in the change log');
    } finally {
      await connection.close();
      await own.close();
    }
  });

  test('downloads.other-instance: another instance on the same database sees the downloads after the flush', async () => {
    const other = await startServer({ dataDir: server.dataDir });
    try {
      const { id: first } = await addSound(server.services, { name: 'Elsewhere First', tags: ['other-instance'] });
      const { id: second } = await addSound(server.services, { name: 'Elsewhere Second', tags: ['other-instance'] });
      await eventually(() => popular(other, [first, second]), (list) => list.length === 2, SEEN_ELSEWHERE_MS, 'the other instance sees the sounds');
      await download(first);
      for (let n = 0; n < 5; n++) await download(second);
      await eventually(() => popular(other, [first, second]), (list) => list[0]?.id === second && list[0].numDownloads === 5 && list[1]?.numDownloads === 1,
        SEEN_ELSEWHERE_MS, 'the other instance ranks by the flushed counts');
      // Its own downloads add to those, at once.
      for (let n = 0; n < 6; n++) {
        const response = await other.get(`/api/v1/sounds/${first}/download`, { key });
        assert.equal(response.status, 200);
      }
      assert.deepEqual(await popular(other, [first, second]), [{ id: first, numDownloads: 7 }, { id: second, numDownloads: 5 }]);
      await eventually(() => popular(server, [first, second]), (list) => list[0]?.id === first && list[0].numDownloads === 7, SEEN_ELSEWHERE_MS, 'and back');
    } finally {
      await other.close({ keepData: true });
    }
  });

  test('downloads.shutdown: a clean stop writes the downloads not yet written, and a restart shows them', async () => {
    const restartable = await startServer();
    const { key: ownKey } = await restartable.account('pro');
    const { id } = await addSound(restartable.services, { name: 'Shutdown Bell', tags: ['shutdown'] });
    const responses = await Promise.all(Array.from({ length: 7 }, () => restartable.get(`/api/v1/sounds/${id}/download`, { key: ownKey })));
    assert.deepEqual(responses.map((response) => response.status), Array(7).fill(200));
    await restartable.close({ keepData: true });
    assert.equal(await stored(restartable, id), 7);
    const restarted = await startServer({ dataDir: restartable.dataDir });
    try {
      const body = await (await restarted.get('/api/v1/sounds/popular?limit=1', { key: ownKey })).json() as { data: Listed[] };
      assert.deepEqual(body.data.map(({ id, numDownloads }) => ({ id, numDownloads })), [{ id, numDownloads: 7 }]);
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
