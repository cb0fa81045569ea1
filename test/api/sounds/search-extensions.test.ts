import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound, type FixtureSound } from '../../helpers/sounds.ts';

type Body = {
  data: Array<{ id: string; name: string }>;
  pagination: { page: number; limit: number; total: number; totalPages: number };
  facets?: { category?: Record<string, number>; tags?: Array<{ tag: string; count: number }> };
};

/** The additions of issue 16 to GET /api/v1/sounds: relevance, onset and loudness filters, facets. */
describe('search extensions', () => {
  let server: TestServer;
  let key: string;
  const ids: Record<string, string> = {};
  const get = (query: string) => server.get(`/api/v1/sounds?${query}`, { key });
  const search = async (query: string): Promise<Body> => {
    const response = await get(query);
    assert.equal(response.status, 200, `${query}: ${response.status} ${await response.clone().text()}`);
    return response.json() as Promise<Body>;
  };
  const names = (body: Body) => body.data.map((sound) => sound.name);
  const download = async (name: string, times: number) => {
    for (let i = 0; i < times; i++)
      assert.equal((await server.get(`/api/v1/sounds/${ids[name]}/download`, { key })).status, 200);
  };

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    const add = async (name: string, fixture: FixtureSound) => {
      ids[name] = (await addSound(server.services, { name, ...fixture })).id;
    };
    const measured = (onset: number | null, lufs: number | null) => ({
      timing: {
        onset_ms: onset,
        peak_ms: onset === null ? null : onset + 5,
        tail_ms: onset === null ? null : onset + 500,
      },
      loudness: { integrated_lufs: lufs, true_peak_db: lufs === null ? null : lufs + 10 },
    });
    // Relevance for q=glass, best first: name whole word (two of them: downloads decide), name
    // beginning, name inside, tag, description whole word, description inside.
    await add('Glass Break', { tags: ['shatter'], description: 'A window', category: 'SFX', ...measured(2, -12) });
    await add('Glass Door', { tags: ['door'], description: 'Sliding', category: 'SFX', ...measured(40, -20) });
    await add('Glassy Pad', { tags: ['pad'], description: 'Airy synth', category: 'MUSIC', ...measured(120, -24) });
    await add('Fiberglass Hit', { tags: ['impact'], description: 'Dull thud', category: 'SFX', ...measured(0, -9) });
    await add('Window Smash', { tags: ['glass', 'impact'], description: 'Loud', category: 'SFX', ...measured(8, -14) });
    await add('Bottle Drop', {
      tags: ['bottle'],
      description: 'Broken glass on tile',
      category: 'SFX',
      ...measured(15, -16),
    });
    await add('Timer', {
      tags: ['clock'],
      description: 'An old sandglass',
      category: 'AMBIENT',
      ...measured(300, -30),
    });
    await add('Silence', {
      tags: ['impact'],
      description: 'Nothing at all',
      category: 'AMBIENT',
      ...measured(null, null),
    });
    await download('Glass Door', 2);
    await download('Timer', 3);
  });
  after(() => server.close());

  test(
    'search.relevance: name above tag above description; ' +
      'whole word above beginning above inside; ties by downloads',
    async () => {
      assert.deepEqual(names(await search('q=glass&sort=relevance')), [
        'Glass Door',
        'Glass Break',
        'Glassy Pad',
        'Fiberglass Hit',
        'Window Smash',
        'Bottle Drop',
        'Timer',
      ]);
      assert.deepEqual(names(await search('q=glass&sort=relevance&order=asc')), [
        'Timer',
        'Bottle Drop',
        'Window Smash',
        'Fiberglass Hit',
        'Glassy Pad',
        'Glass Break',
        'Glass Door',
      ]);
      // Pages of a relevance sort follow each other without repeating or skipping a sound.
      const pages = [1, 2, 3].map((page) => search(`q=glass&sort=relevance&limit=3&page=${page}`));
      const paged = (await Promise.all(pages)).flatMap(names);
      assert.deepEqual(paged, [
        'Glass Door',
        'Glass Break',
        'Glassy Pad',
        'Fiberglass Hit',
        'Window Smash',
        'Bottle Drop',
        'Timer',
      ]);
      // Every word counts: "glass" in a name and "impact" in a tag beat "glass" in a tag alone.
      assert.deepEqual(names(await search('q=glass%20impact&sort=relevance')), ['Fiberglass Hit', 'Window Smash']);
    },
  );

  test(
    'search.relevance: a q of many words scores past 255 ' + 'and still ranks (a score per sound is not a byte)',
    async () => {
      const many = Array.from({ length: 30 }, () => 'glass').join('%20'); // 30 words of up to 9: 270
      assert.deepEqual(names(await search(`q=${many}&sort=relevance&limit=3`)), [
        'Glass Door',
        'Glass Break',
        'Glassy Pad',
      ]);
    },
  );

  test('search.relevance: without q it orders like downloads; the default sort stays downloads', async () => {
    const byDownloads = names(await search('sort=downloads'));
    assert.deepEqual(names(await search('sort=relevance')), byDownloads);
    assert.deepEqual(names(await search('')), byDownloads);
    assert.deepEqual(byDownloads.slice(0, 2), ['Timer', 'Glass Door']);
    assert.deepEqual(names(await search('q=glass')).slice(0, 2), ['Timer', 'Glass Door']);
  });

  test(
    'search.filters: max_onset_ms keeps tight sounds; LUFS ' + 'bounds are inclusive; unmeasured sounds never match',
    async () => {
      const sorted = async (query: string) => names(await search(`${query}&sort=name&order=asc`));
      assert.deepEqual(await sorted('max_onset_ms=8'), ['Fiberglass Hit', 'Glass Break', 'Window Smash']);
      assert.deepEqual(await sorted('max_onset_ms=0'), ['Fiberglass Hit']);
      assert.deepEqual(await sorted('min_lufs=-16&max_lufs=-12'), ['Bottle Drop', 'Glass Break', 'Window Smash']);
      assert.deepEqual(await sorted('max_lufs=-24'), ['Glassy Pad', 'Timer']);
      assert.deepEqual(await sorted('min_lufs=-10'), ['Fiberglass Hit']);
      assert.deepEqual(await sorted('q=impact&max_onset_ms=10'), ['Fiberglass Hit', 'Window Smash']);
      const body = await search('max_onset_ms=100000&limit=1');
      assert.equal(body.pagination.total, 7, 'every sound with an onset, and not the silent one');
    },
  );

  test(
    'search.facets: counted over every match, not the ' + 'page; every category listed; top tags by count then tag',
    async () => {
      const body = await search('q=glass&facets=category,tags&limit=1');
      assert.equal(body.data.length, 1);
      assert.equal(body.pagination.total, 7);
      assert.deepEqual(body.facets!.category, { SFX: 5, MUSIC: 1, LOFI: 0, AMBIENT: 1 });
      assert.deepEqual(body.facets!.tags, [
        { tag: 'impact', count: 2 },
        { tag: 'bottle', count: 1 },
        { tag: 'clock', count: 1 },
        { tag: 'door', count: 1 },
        { tag: 'glass', count: 1 },
        { tag: 'pad', count: 1 },
        { tag: 'shatter', count: 1 },
      ]);
      const everything = await search('facets=category');
      assert.deepEqual(everything.facets, { category: { SFX: 5, MUSIC: 1, LOFI: 0, AMBIENT: 2 } });
      const filtered = await search('facets=tags&max_onset_ms=8');
      assert.deepEqual(filtered.facets, {
        tags: [
          { tag: 'impact', count: 2 },
          { tag: 'glass', count: 1 },
          { tag: 'shatter', count: 1 },
        ],
      });
      const none = await search('q=nothing-like-this&facets=tags,category');
      assert.deepEqual(none.facets, { category: { SFX: 0, MUSIC: 0, LOFI: 0, AMBIENT: 0 }, tags: [] });
    },
  );

  test('search.facets: without the parameter the body is exactly data and pagination', async () => {
    for (const query of ['q=glass', 'facets=', 'q=glass&sort=relevance&max_lufs=-10']) {
      assert.deepEqual(Object.keys(await search(query)).sort(), ['data', 'pagination'], query);
    }
  });

  test(
    'search.extensions.400: bad numbers, contradicting ' + 'bounds and unknown facets are refused with details',
    async () => {
      const refusals: Array<[string, string]> = [
        ['max_onset_ms=-1', 'max_onset_ms'],
        ['max_onset_ms=soon', 'max_onset_ms'],
        ['max_onset_ms=', 'max_onset_ms'],
        ['min_lufs=-101', 'min_lufs'],
        ['max_lufs=11', 'max_lufs'],
        ['min_lufs=loud', 'min_lufs'],
        ['min_lufs=-10&max_lufs=-20', 'max_lufs'],
        ['facets=colour', 'facets'],
        ['facets=tags,colour', 'facets'],
        ['sort=relevant', 'sort'],
      ];
      for (const [query, param] of refusals) {
        const response = await get(query);
        assert.equal(response.status, 400, query);
        const body = (await response.json()) as { error: string; details: Array<{ param: string }> };
        assert.match(body.error, /Invalid query parameters/, query);
        assert.deepEqual(
          body.details.map((detail) => detail.param),
          [param],
          query,
        );
      }
    },
  );

  test('search.extensions.quota: each search counts once against the daily quota, and needs a key', async () => {
    const before = Number((await get('q=glass')).headers.get('x-ratelimit-remaining'));
    const after = Number(
      (await get('q=glass&sort=relevance&facets=category,tags&max_onset_ms=10')).headers.get('x-ratelimit-remaining'),
    );
    assert.equal(after, before - 1);
    assert.equal((await server.get('/api/v1/sounds?sort=relevance&facets=tags')).status, 401);
  });
});
