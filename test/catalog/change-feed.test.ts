import assert from 'node:assert/strict';
import { configFor, otherConnection } from '../helpers/backend.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DatabaseChangeFeed } from '../../src/catalog/database-change-feed.ts';
import { DownloadCounts } from '../../src/catalog/download-counts.ts';
import { CatalogService } from '../../src/catalog/service.ts';
import { CatalogStore } from '../../src/catalog/store.ts';
import { createServices } from '../../src/wiring.ts';
import { sine } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

/**
 * The search index follows every change to the catalog, whoever makes it: this process (before
 * the write returns), another process or instance on the same database (within a second).
 */
describe('catalog change feed', () => {
  let server: TestServer;
  let key: string;
  const names = async (query: string) =>
    ((await (await server.get(`/api/v1/sounds?${query}`, { key })).json()).data as Array<{ name: string }>).map(
      (sound) => sound.name,
    );

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('enterprise'));
  });
  after(() => server.close());

  test(
    'changes.own-writes: a sound this process adds or ' + 'a download it counts shows in the very next answer',
    async () => {
      const { id } = await addSound(server.services, { name: 'Feed Own Write', tags: ['feedtest'] });
      assert.deepEqual(await names('q=feed%20own'), ['Feed Own Write']);
      const { id: other } = await addSound(server.services, { name: 'Feed Own Other', tags: ['feedtest'] });
      assert.equal((await server.get(`/api/v1/sounds/${other}/download`, { key })).status, 200);
      assert.deepEqual(await names('tags=feedtest&sort=downloads'), ['Feed Own Other', 'Feed Own Write']);
      assert.ok(id);
    },
  );

  test('changes.ingest-elsewhere: a file ingested by another process is found within a second', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'feed-ingest-'));
    try {
      await writeFile(
        path.join(folder, 'distant-foghorn.wav'),
        encodeWavFloat32({ sampleRate: 22_050, channels: [sine(22_050, 180, -12, 11_025)] }),
      );
      const result = await runCli(['ingest', folder, '--json'], {
        SOUND_CATALOG_DATA: server.dataDir,
        SOUND_CATALOG_DEMO: '0',
      });
      assert.equal(result.status, 0, result.stderr);
      await eventually(
        () => names('q=foghorn'),
        (found) => found.length === 1,
        1000,
        'the ingested sound is found',
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test(
    'changes.other-instance: downloads, renames and deletions ' +
      'by another connection reach the index within a second',
    async () => {
      const { id: quiet } = await addSound(server.services, { name: 'Elsewhere Quiet', tags: ['elsewhere'] });
      const { id: loud } = await addSound(server.services, { name: 'Elsewhere Loud', tags: ['elsewhere'] });
      // Another instance on the same database counts downloads of the quiet one.
      const other = await createServices(await configFor(server.dataDir));
      try {
        for (let i = 0; i < 3; i++) assert.ok(await other.catalog.countDownload(quiet));
      } finally {
        await other.close();
      }
      await eventually(
        () => names('tags=elsewhere&sort=downloads'),
        (found) => found[0] === 'Elsewhere Quiet',
        1000,
        'downloads elsewhere reorder the list',
      );

      const elsewhere = await otherConnection(server.dataDir);
      try {
        await elsewhere.run('UPDATE sounds SET name = ? WHERE id = ?', 'Elsewhere Renamed', loud);
        await eventually(
          () => names('tags=elsewhere&sort=name&order=asc'),
          (found) => found.includes('Elsewhere Renamed'),
          1000,
          'a rename elsewhere is seen',
        );
        await elsewhere.run('DELETE FROM sounds WHERE id = ?', quiet);
        await eventually(
          () => names('tags=elsewhere'),
          (found) => found.length === 1 && found[0] === 'Elsewhere Renamed',
          1000,
          'a deleted sound leaves every list',
        );
      } finally {
        await elsewhere.close();
      }
    },
  );

  test(
    'changes.reload: a reader left behind a pruned log ' + 'loads the catalog again and ends up with every change',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'feed-prune-'));
      const writer = await createServices(await configFor(dataDir));
      const { db, dialect } = writer.database;
      // A reader that keeps only 10 rows of log, and reads it as a busy instance would.
      const pruning = new CatalogService(
        new CatalogStore(db),
        new DatabaseChangeFeed(db, dialect, { keepChanges: 10 }),
        new DownloadCounts(db, dialect),
      );
      const behind = new CatalogService(
        new CatalogStore(db),
        new DatabaseChangeFeed(db, dialect),
        new DownloadCounts(db, dialect),
      );
      try {
        const first = await addSound(writer, { name: 'Prune First' });
        await pruning.start();
        await behind.start();
        behind.close(); // stops following: its cursor stays where it is
        for (let i = 0; i < 40; i++) {
          await addSound(writer, { name: `Prune Later ${i}` });
          await pruning.changed();
        }
        const oldest = await db
          .selectFrom('catalog_changes')
          .select((eb) => eb.fn.min('seq').as('seq'))
          .executeTakeFirstOrThrow();
        assert.ok(Number(oldest.seq) > 5, `the log was pruned (oldest row ${oldest.seq})`);
        await behind.changed();
        const page = await behind.search({
          words: ['prune'],
          categories: [],
          tags: [],
          sort: 'name',
          order: 'asc',
          page: 1,
          limit: 100,
        });
        assert.equal(page.total, 41);
        assert.ok(page.items.some((sound) => sound.id === first.id));
      } finally {
        pruning.close();
        behind.close();
        await writer.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  test(
    'changes.read-fails: a write whose feed read fails still ' +
      'succeeds; the failure is reported and the next read catches up',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'feed-fail-'));
      const services = await createServices(await configFor(dataDir));
      const { db, dialect } = services.database;
      const errors: unknown[] = [];
      // The feed's next read fails once, as a read of a database that hiccups would.
      const feed = new DatabaseChangeFeed(db, dialect);
      let failNextRead = false;
      const changesSince = feed.changesSince.bind(feed);
      feed.changesSince = async (cursor, limit) => {
        if (failNextRead) {
          failNextRead = false;
          throw new Error('the change log could not be read');
        }
        return changesSince(cursor, limit);
      };
      const catalog = new CatalogService(new CatalogStore(db), feed, new DownloadCounts(db, dialect), (error) =>
        errors.push(error),
      );
      try {
        const { id } = await addSound(services, { name: 'Feed Fail Probe' });
        await catalog.start();
        failNextRead = true;
        assert.deepEqual(await catalog.setSamples([id]), { samples: 1, unknown: [] }, 'the write is made and answered');
        assert.equal(errors.length, 1);
        await catalog.changed();
        assert.deepEqual(
          (await catalog.samples({ words: [], tags: [], limit: 12 })).items.map((sound) => sound.id),
          [id],
        );
      } finally {
        catalog.close();
        await services.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
