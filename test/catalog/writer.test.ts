import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { contentHashOf } from '../../src/catalog/writer.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

describe('catalog writer', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test(
    'writer.race: the same content put twice at once gives ' + 'one sound, one add and one metadata update, every time',
    async () => {
      // Many rounds: which unique index PostgreSQL meets the other insert on varies from one to the next.
      for (let round = 0; round < 40; round++) {
        const mp3 = new Uint8Array(3000).fill(round);
        const sound = (name: string) => ({
          contentHash: contentHashOf(mp3),
          mp3,
          metadata: {
            name,
            description: null,
            tags: [name.toLowerCase()],
            category: null,
            license: 'CC0',
            sample: false,
          },
          measurements: {
            duration: 1,
            timing: { onset_ms: 0, peak_ms: 1, tail_ms: 2 },
            loudness: { integrated_lufs: -20, true_peak_db: -1 },
            waveform: [[0, 0]] as Array<[number, number]>,
            descriptors: null,
          },
        });
        const results = await Promise.all([
          server.services.catalogWriter.put(sound(`First ${round}`)),
          server.services.catalogWriter.put(sound(`Second ${round}`)),
        ]);
        assert.deepEqual(results.map((r) => r.added).sort(), [false, true]);
        assert.equal(results[0]!.id, results[1]!.id);
        const rows = await server.services.database.db
          .selectFrom('sounds')
          .select(['name', 'file_size'])
          .where('id', '=', results[0]!.id)
          .execute();
        assert.equal(rows.length, 1);
        assert.equal(rows[0]!.file_size, 3000);
        assert.equal(
          await server.services.files.size((await server.services.catalog.findById(results[0]!.id))!.fileKey),
          3000,
        );
      }
      assert.equal(await server.services.catalog.size(), 40);
    },
  );
});
