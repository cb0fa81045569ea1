import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DESCRIPTOR_LENGTH } from '../../src/audio/analyze/descriptors.ts';
import type { Endpoint } from '../../src/api/endpoint.ts';
import { compileSchemaWriter } from '../../src/api/serializer.ts';
import { soundEndpoints } from '../../src/api/sounds/index.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

/**
 * 200 answers are written with JSON.stringify (api/serializer.ts): each must hold exactly the
 * fields its schema declares, of the declared types. Written again by the serializer compiled
 * from the schema (fast-json-stringify, which drops undeclared fields and coerces types), every
 * answer must come out the same.
 */
describe('answers hold exactly their schema\'s fields', () => {
  let server: TestServer;
  let key: string;
  const ids: string[] = [];
  const samples: string[] = [];
  const writers = new Map<Endpoint, (body: unknown) => string>();

  /** Fetches a 200 answer and checks it against the writer compiled from its endpoint's schema. */
  const check = async (operationId: string, path: string, authenticated = true) => {
    const endpoint = soundEndpoints.find((candidate) => candidate.operationId === operationId)!;
    let writer = writers.get(endpoint);
    if (!writer) writers.set(endpoint, writer = compileSchemaWriter(endpoint.responses[200]!.schema));
    const response = await server.get(path, authenticated ? { key } : {});
    assert.equal(response.status, 200, path);
    const body: unknown = JSON.parse(await response.text());
    assert.deepEqual(JSON.parse(writer(body)), body, path);
    return body as { data: unknown[] };
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
        duration: 0.5 + i,
        timing: i % 6 === 0 ? { onset_ms: null, peak_ms: null, tail_ms: null } : { onset_ms: i, peak_ms: 2 * i, tail_ms: 100 * i },
        loudness: i % 6 === 0 ? { integrated_lufs: null, true_peak_db: null } : { integrated_lufs: -30 + i / 2, true_peak_db: -1 - i / 10 },
        descriptors: Array.from({ length: DESCRIPTOR_LENGTH }, (_, j) => Math.sin(i * 7 + j)),
        sample: i % 3 === 0,
      });
      ids.push(id);
      if (i % 3 === 0) samples.push(id);
    }
    for (const id of ids.slice(0, 5)) await server.get(`/api/v1/sounds/${id}/download`, { key });
  });
  after(() => server.close());

  test('answer-shapes.each-endpoint: every 200 answer of every endpoint', async () => {
    const some = ids[1]!;
    await check('listSampleSounds', '/api/v1/sounds/sample', false);
    await check('listSampleSounds', '/api/v1/sounds/sample?q=rain&tags=door,wind&limit=3', false);
    await check('streamSampleSound', `/api/v1/sounds/sample/${samples[0]}/stream`, false);
    await check('searchSounds', '/api/v1/sounds');
    await check('searchSounds', '/api/v1/sounds?q=nothing-matches-this');
    await check('listPopularSounds', '/api/v1/sounds/popular?limit=5');
    await check('getSound', `/api/v1/sounds/${some}`);
    await check('streamSound', `/api/v1/sounds/${some}/stream`);
    await check('streamSound', `/api/v1/sounds/${some}/stream?loudness=-16&trim=true`);
    await check('downloadSound', `/api/v1/sounds/${some}/download`);
    const similar = await check('findSimilarSounds', `/api/v1/sounds/${some}/similar?limit=5`);
    assert.ok(similar.data.length > 0, 'similar sounds were compared');
    await check('getSoundWaveform', `/api/v1/sounds/${some}/waveform?points=4`);
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
    await fc.assert(fc.asyncProperty(query, async (params) => {
      const given: Record<string, string> = {};
      for (const [name, value] of Object.entries(params)) if (value !== undefined) given[name] = value;
      const search = new URLSearchParams(given);
      await check('searchSounds', `/api/v1/sounds?${search}`);
    }), { numRuns: 150 });
  });
});
