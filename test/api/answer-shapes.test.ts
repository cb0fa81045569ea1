import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import fc from 'fast-check';
import { z } from 'zod';
import { DESCRIPTOR_LENGTH } from '../../src/audio/analyze/descriptors.ts';
import { defineEndpoint, registerEndpoints } from '../../src/api/endpoint.ts';
import { compileSchemaWriter } from '../../src/api/serializer.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { MediaSigner } from '../../src/media/signing.ts';
import { SECRET_MIN_LENGTH } from '../../src/secret-length.ts';
import { registerErrorHandling } from '../../src/api/errors.ts';
import { toCursorPagination, toPopularSound, toSound, toSoundSummary } from '../../src/shapes/mappers.ts';
import { pageOrCursorPaginationSchema, soundSchema, streamResultSchema } from '../../src/shapes/schemas.ts';
import type { Sound } from '../../src/catalog/sound.ts';
import { PackService } from '../../src/packs/service.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

type Mapper = (sound: Sound, signer: MediaSigner) => object;
interface Page {
  data: Array<Record<string, unknown>>;
  pagination: Record<string, unknown>;
}

/**
 * Answers are written by fast-json-stringify from their response schemas (api/serializer.ts). What
 * a client reads must be what the mappers made, value for value: nulls stay null, fractions keep
 * every digit, an optional field is absent where the mapper left it out; and a field the schema
 * does not list never reaches the client, whatever a handler hands over.
 */
describe('answers are written from their schemas', () => {
  let server: TestServer;
  let key: string;
  const ids: string[] = [];
  const samples: string[] = [];

  const fetchJson = async <T = Page>(path: string, authenticated = true): Promise<T> => {
    const response = await server.get(path, authenticated ? { key } : {});
    assert.equal(response.status, 200, path);
    return JSON.parse(await response.text()) as T;
  };

  /** Every sound of the answer is exactly what `mapper` makes of the stored sound, as JSON. */
  const checkSounds = async (path: string, mapper: Mapper, authenticated = true): Promise<Page> => {
    const page = await fetchJson(path, authenticated);
    for (const sound of page.data) {
      const stored = (await server.services.catalog.findById(sound.id as string))!;
      const { similarity, ...rest } = sound;
      const expected: unknown = JSON.parse(JSON.stringify(mapper(stored, server.services.signer)));
      assert.deepEqual(rest, expected, `${path}: ${sound.id}`);
      if (similarity !== undefined) assert.equal(typeof similarity, 'number');
    }
    return page;
  };

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    const words = ['rain', 'door', 'laser', 'glass', 'wind', 'step'];
    for (let i = 0; i < 24; i++) {
      const { id } = await addSound(server.services, {
        name: `${words[i % words.length]} ${i} "quoted" \\ é`,
        description: i % 4 === 0 ? null : `A ${words[(i + 1) % words.length]} sound, take ${i}`,
        tags: [words[i % words.length]!, words[(i + 2) % words.length]!],
        category: (['SFX', 'MUSIC', 'LOFI', 'AMBIENT'] as const)[i % 4],
        license: i % 5 === 0 ? 'CC0 1.0 Universal' : 'CC0',
        duration: 0.1 + 0.2 + i,
        timing:
          i % 6 === 0
            ? { onset_ms: null, peak_ms: null, tail_ms: null }
            : { onset_ms: i / 3, peak_ms: 2 * i, tail_ms: 100.125 * i },
        loudness:
          i % 6 === 0
            ? { integrated_lufs: null, true_peak_db: null }
            : { integrated_lufs: -30 + i / 7, true_peak_db: -1 - i / 10 },
        descriptors: Array.from({ length: DESCRIPTOR_LENGTH }, (_, j) => Math.sin(i * 7 + j)),
        sample: i % 3 === 0,
      });
      ids.push(id);
      if (i % 3 === 0) samples.push(id);
    }
    for (const id of ids.slice(0, 5)) await server.get(`/api/v1/sounds/${id}/download`, { key });
  });
  after(() => server.close());

  test('answer-shapes.values: every operation answers what the mappers made', async () => {
    const some = ids[1]!;
    const withoutDownload: Mapper = (sound, signer) => toSoundSummary(sound, signer);
    const listed = await checkSounds('/api/v1/sounds/sample?limit=50', withoutDownload, false);
    assert.equal(listed.data.length, samples.length);
    assert.ok(
      listed.data.every((sound) => !('download_url' in sound)),
      'samples have no download URL',
    );
    await checkSounds('/api/v1/sounds/sample?q=rain&tags=door,wind&limit=3', withoutDownload, false);
    const searched = await checkSounds('/api/v1/sounds?limit=100', toSound);
    assert.equal(searched.data.length, ids.length);
    assert.deepEqual(searched.pagination, { page: 1, limit: 100, total: ids.length, totalPages: 1 });
    const popular = await checkSounds('/api/v1/sounds/popular?limit=5', toPopularSound);
    assert.deepEqual(popular.pagination, { page: 1, limit: 5, total: ids.length, totalPages: 5 });
    assert.deepEqual(await fetchJson(`/api/v1/sounds/${some}`), {
      data: JSON.parse(
        JSON.stringify(toSound((await server.services.catalog.findById(some))!, server.services.signer)),
      ),
    });
    const similar = await checkSounds(`/api/v1/sounds/${some}/similar?limit=5`, toSound);
    assert.ok(similar.data.length > 0, 'similar sounds were compared');
    const waveform = { id: some, points: 16, peaks: Array.from({ length: 16 }, () => [-0.5, 0.5]) };
    assert.deepEqual(await fetchJson(`/api/v1/sounds/${some}/waveform?points=16`), { data: waveform });
  });

  test('answer-shapes.pagination: next_cursor in a cursor walk only, null at its end', async () => {
    const first = await checkSounds('/api/v1/sounds?cursor=&limit=20', toSound);
    assert.equal(typeof first.pagination.next_cursor, 'string');
    const next = encodeURIComponent(first.pagination.next_cursor as string);
    const last = await checkSounds(`/api/v1/sounds?cursor=${next}&limit=20`, toSound);
    assert.deepEqual(last.pagination, { page: 1, limit: 20, total: ids.length, totalPages: 2, next_cursor: null });
    const popular = await checkSounds('/api/v1/sounds/popular?cursor=&limit=30', toPopularSound);
    assert.deepEqual(popular.pagination, { page: 1, limit: 30, total: ids.length, totalPages: 1, next_cursor: null });
    const paged = await fetchJson('/api/v1/sounds?page=2&limit=20');
    assert.deepEqual(paged.pagination, { page: 2, limit: 20, total: ids.length, totalPages: 2 });
  });

  test('answer-shapes.search: searches over every parameter, facets included', async () => {
    const query = fc.record({
      q: fc.option(fc.constantFrom('rain', 'door take', 'la', 'quoted', 'é'), { nil: undefined }),
      category: fc.option(fc.constantFrom('sfx', 'music,lofi', 'AMBIENT'), { nil: undefined }),
      tags: fc.option(fc.constantFrom('rain', 'door,wind'), { nil: undefined }),
      min_duration: fc.option(fc.constantFrom('1', '4.5'), { nil: undefined }),
      max_duration: fc.option(fc.constantFrom('10', '30'), { nil: undefined }),
      max_onset_ms: fc.option(fc.constantFrom('5', '20'), { nil: undefined }),
      min_lufs: fc.option(fc.constantFrom('-28', '-20'), { nil: undefined }),
      facets: fc.option(fc.constantFrom('category', 'tags', 'category,tags'), { nil: undefined }),
      sort: fc.option(fc.constantFrom('downloads', 'created_at', 'duration', 'name', 'relevance'), { nil: undefined }),
      order: fc.option(fc.constantFrom('asc', 'desc'), { nil: undefined }),
      page: fc.option(fc.constantFrom('1', '2'), { nil: undefined }),
      limit: fc.option(fc.constantFrom('1', '5', '100'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const given: Record<string, string> = {};
        for (const [name, value] of Object.entries(params)) if (value !== undefined) given[name] = value;
        const path = `/api/v1/sounds?${new URLSearchParams(given)}`;
        const page: Page & { facets?: object } = await checkSounds(path, toSound);
        assert.equal('facets' in page, given.facets !== undefined);
        assert.ok(!('next_cursor' in page.pagination));
      }),
      { numRuns: 100 },
    );
  });

  test('answer-shapes.no-leak: a field the schema does not list never reaches the client', async () => {
    // Handlers that hand over a whole stored sound (file key, size, content hash, descriptors...),
    // served by the same registration as the API's endpoints, over the same database.
    const route = {
      method: 'GET',
      operationId: 'leak',
      summary: 'leak',
      description: 'leak',
      tag: 'leak',
      security: 'public',
    } as const;
    const stored = (await server.services.catalog.findById(ids[1]!))!;
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    registerEndpoints(
      app,
      [
        defineEndpoint({
          ...route,
          url: '/stream',
          query: z.object({}),
          responses: { 200: { description: 'A streaming URL.', schema: z.object({ data: streamResultSchema }) } },
          async handler({ services }) {
            const sound = (await services.catalog.findById(stored.id))!;
            return { data: Object.assign(sound, { stream_url: services.signer.sign(sound.id, 'stream').url }) };
          },
        }),
        defineEndpoint({
          ...route,
          url: '/walk',
          query: z.object({}),
          responses: {
            200: {
              description: 'A walk.',
              schema: z.object({ data: z.array(soundSchema), pagination: pageOrCursorPaginationSchema }),
            },
          },
          async handler({ services }) {
            const sound = (await services.catalog.findById(stored.id))!;
            const timing = Object.assign({ ...sound.timing }, { energy: 0.5 });
            return {
              data: [Object.assign(sound, toSound(sound, services.signer), { timing })],
              pagination: Object.assign(toCursorPagination(1, 20, 1, 'next'), { next_page: 2 }),
              secret: sound.fileKey,
            };
          },
        }),
      ],
      { ...server.services, packs: new PackService(server.services) },
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const streamed = await fetch(`${url}/stream`);
      const text = await streamed.text();
      assert.equal(streamed.status, 200, text);
      assert.deepEqual(JSON.parse(text), {
        data: { id: stored.id, name: stored.name, stream_url: server.services.signer.sign(stored.id, 'stream').url },
      });
      const walked = await fetch(`${url}/walk`);
      const walk = await walked.text();
      assert.equal(walked.status, 200, walk);
      assert.ok(!walk.includes(stored.fileKey), 'the file key never reaches the client');
      assert.deepEqual(JSON.parse(walk), {
        data: [JSON.parse(JSON.stringify(toSound(stored, server.services.signer)))],
        pagination: { page: 1, limit: 20, total: 1, totalPages: 1, next_cursor: 'next' },
      });
    } finally {
      await app.close();
    }
  });
});

/**
 * URLs are written unescaped (api/serializer.ts). Whatever PUBLIC_URL the settings accept and
 * whatever a sound's id, the answer is the JSON of what the mappers made; a PUBLIC_URL holding a
 * character JSON escapes is refused at start.
 */
test('answer-shapes.urls: URLs written unescaped are still exact JSON, for any accepted PUBLIC_URL', () => {
  const write = compileSchemaWriter(z.object({ data: z.array(soundSchema) }));
  const sound = (id: string): Sound =>
    ({
      id,
      name: 'n',
      description: null,
      tags: [],
      category: 'SFX',
      license: 'CC0',
      duration: 1,
      timing: { onset_ms: null, peak_ms: null, tail_ms: null },
      loudness: { integrated_lufs: null, true_peak_db: null },
      loop: null,
    }) as unknown as Sound;
  // Settings come from the environment, which holds no lone surrogate; neither does an id.
  const texts = fc.string({
    unit: fc.constantFrom('"', '\\', '\u0000', '\n', '\u007f', 'é', '😀', 'a', '/', '%', '<'),
  });
  fc.assert(
    fc.property(
      fc.oneof(
        fc.webUrl(),
        texts.map((t) => `https://sounds.example.com/${t}`),
      ),
      texts,
      (url, id) => {
        let publicUrl: string | null;
        try {
          publicUrl = loadConfig({ PUBLIC_URL: url }).publicUrl;
        } catch (error) {
          assert.ok(error instanceof ConfigError, String(error));
          assert.match(url, /["\\\u0000-\u001f\u007f]/, `${JSON.stringify(url)} is refused only for what JSON escapes`);
          return;
        }
        const signer = new MediaSigner(
          ['s'.repeat(SECRET_MIN_LENGTH)],
          () => publicUrl!,
          () => 1_767_225_600_000,
        );
        const body = { data: [toSound(sound(id), signer)] };
        assert.deepEqual(JSON.parse(write(body)), JSON.parse(JSON.stringify(body)));
      },
    ),
    { numRuns: 300 },
  );
});

/**
 * Numbers are written by api/serializer.ts's numberText, not fast-json-stringify's own: for any
 * finite number the text is JSON.stringify's, byte for byte; a value that is not a number is
 * refused, as fast-json-stringify refuses it.
 */
test('answer-shapes.numbers: every finite number written as JSON.stringify writes it', () => {
  const write = compileSchemaWriter(soundSchema);
  const sound = (duration: unknown, onset: unknown, peak: unknown, tail: unknown, lufs: unknown) => ({
    id: 'a',
    name: 'n',
    description: null,
    tags: [],
    duration,
    stream_url: 'https://sounds.example.com/media/a.mp3',
    category: 'SFX',
    license: 'CC0',
    timing: { onset_ms: onset, peak_ms: peak, tail_ms: tail },
    loudness: { integrated_lufs: lufs, true_peak_db: null },
    loop: null,
  });
  const numbers = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constant(-0));
  fc.assert(
    fc.property(numbers, numbers, numbers, numbers, numbers, (...values) => {
      const body = sound(...values);
      assert.equal(write(body), JSON.stringify(body));
    }),
    { numRuns: 500 },
  );
  assert.throws(() => write(sound('x', null, null, null, null)), /cannot be converted to a number/);
});
