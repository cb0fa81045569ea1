import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';

type Listed = { id: string; name: string; duration: number };

describe('search', () => {
  let server: TestServer;
  let key: string;
  const ids: Record<string, string> = {};
  const search = async (query: string) => {
    const response = await server.get(`/api/v1/sounds?${query}`, { key });
    assert.equal(response.status, 200, `${query}: ${response.status}`);
    return response.json() as Promise<{
      data: Listed[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    }>;
  };
  const names = (body: { data: Listed[] }) => body.data.map((sound) => sound.name).sort();

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    const add = async (name: string, fixture: Parameters<typeof addSound>[1]) => {
      ids[name] = (await addSound(server.services, { name, ...fixture })).id;
    };
    await add('Footsteps Gravel', {
      description: 'Slow steps on gravel',
      tags: ['footsteps', 'outdoor'],
      duration: 4,
      category: 'SFX',
    });
    await add('Laser Zap', {
      description: 'Short sci-fi zap',
      tags: ['laser', 'sci-fi', 'short'],
      duration: 0.4,
      category: 'SFX',
    });
    await add('Laser Beam Long', {
      description: 'Sustained beam',
      tags: ['laser', 'sci-fi'],
      duration: 2.5,
      category: 'SFX',
    });
    await add('Night Rain', {
      description: 'Rain on a tin roof',
      tags: ['rain', 'night'],
      duration: 30,
      category: 'AMBIENT',
    });
    await add('Lofi Loop 80 BPM', {
      description: 'Chill jazzy chords',
      tags: ['lofi', 'loop', 'chill'],
      duration: 12,
      category: 'LOFI',
    });
    await add('Arcade Tune', {
      description: 'Upbeat chiptune loop',
      tags: ['music', 'loop', '8-bit'],
      duration: 16,
      category: 'MUSIC',
    });
    await add('UI Click', { description: 'A dry click', tags: ['ui', 'click'], duration: 0.05, category: 'SFX' });
  });
  after(() => server.close());

  test('search.happy: full Sound items with timing, loudness and both signed URLs', async () => {
    const body = await search('q=zap');
    assert.deepEqual(names(body), ['Laser Zap']);
    const [sound] = body.data as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(
      Object.keys(sound!).sort(),
      [
        'category',
        'description',
        'download_url',
        'duration',
        'id',
        'license',
        'loop',
        'loudness',
        'name',
        'stream_url',
        'tags',
        'timing',
      ].sort(),
    );
    assert.deepEqual(sound!.timing, { onset_ms: 12.5, peak_ms: 40.25, tail_ms: 900.125 });
    assert.deepEqual(sound!.loudness, { integrated_lufs: -18.2, true_peak_db: -1.1 });
    assert.equal(sound!.license, 'CC0');
    assert.equal(sound!.loop, null);
    assert.match(String(sound!.download_url), /d=download/);
    assert.deepEqual(body.pagination, { page: 1, limit: 20, total: 1, totalPages: 1 });
  });

  test('search.q: every word must match name, description or a tag; case-insensitive; inside words', async () => {
    assert.deepEqual(names(await search('q=LASER')), ['Laser Beam Long', 'Laser Zap']);
    assert.deepEqual(names(await search('q=laser%20short')), ['Laser Zap']);
    assert.deepEqual(names(await search('q=foot')), ['Footsteps Gravel']);
    assert.deepEqual(names(await search('q=tin%20rain')), ['Night Rain']);
    assert.deepEqual(names(await search('q=laser%20rain')), []);
    assert.deepEqual(names(await search('q=8-bit')), ['Arcade Tune']);
  });

  test('search.q: one- and two-letter words are matched too', async () => {
    assert.deepEqual(names(await search('q=ui')), ['UI Click']);
    assert.deepEqual(names(await search('q=zap%20i')), ['Laser Zap']);
    assert.deepEqual(names(await search('q=8')), ['Arcade Tune', 'Lofi Loop 80 BPM']);
  });

  test('search.q: quotes and FTS syntax in q are plain text, never an error', async () => {
    for (const q of ['"', 'laser"', 'NEAR(a b)', 'a AND', '*', 'x:y', "'"]) {
      const response = await server.get(`/api/v1/sounds?q=${encodeURIComponent(q)}`, { key });
      assert.equal(response.status, 200, q);
    }
  });

  test('search.filters: tags are ANDed, categories ORed in any case, durations inclusive', async () => {
    assert.deepEqual(names(await search('tags=laser,short')), ['Laser Zap']);
    assert.deepEqual(names(await search('tags=LOOP')), ['Arcade Tune', 'Lofi Loop 80 BPM']);
    assert.deepEqual(names(await search('category=lofi,Music')), ['Arcade Tune', 'Lofi Loop 80 BPM']);
    assert.deepEqual(names(await search('category=AMBIENT')), ['Night Rain']);
    assert.deepEqual(names(await search('min_duration=2.5&max_duration=12')), [
      'Footsteps Gravel',
      'Laser Beam Long',
      'Lofi Loop 80 BPM',
    ]);
    assert.deepEqual(names(await search('q=laser&max_duration=1')), ['Laser Zap']);
  });

  test('search.sort: each field in both orders, with a stable order across pages', async () => {
    const all = await search('sort=duration&order=asc&limit=100');
    assert.deepEqual(
      all.data.map((s) => s.duration),
      [0.05, 0.4, 2.5, 4, 12, 16, 30],
    );
    const byName = await search('sort=name&order=asc');
    assert.deepEqual(
      byName.data.map((s) => s.name),
      [...byName.data.map((s) => s.name)].sort(),
    );
    const byNameDesc = await search('sort=name');
    assert.deepEqual(
      byNameDesc.data.map((s) => s.name),
      byName.data.map((s) => s.name).reverse(),
    );
    for (const sort of ['downloads', 'created_at', 'duration', 'name']) {
      for (const order of ['asc', 'desc']) {
        const seen: string[] = [];
        for (let page = 1; page <= 4; page++) {
          const body = await search(`sort=${sort}&order=${order}&limit=2&page=${page}`);
          assert.equal(body.pagination.totalPages, 4);
          seen.push(...body.data.map((s) => s.id));
        }
        assert.equal(new Set(seen).size, 7, `${sort} ${order} pages repeat or skip`);
      }
    }
  });

  test('search.pagination: page past the end is empty with the right totals', async () => {
    const body = await search('page=9&limit=3');
    assert.deepEqual(body.data, []);
    assert.deepEqual(body.pagination, { page: 9, limit: 3, total: 7, totalPages: 3 });
  });

  test('search.errors: unknown names and invalid values are 400 with details', async () => {
    const cases: Array<[string, string]> = [
      ['foo=1', 'foo'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=', 'limit'],
      ['page=0', 'page'],
      ['sort=random', 'sort'],
      ['order=up', 'order'],
      ['category=jazz', 'category'],
      ['min_duration=-1', 'min_duration'],
      ['max_duration=abc', 'max_duration'],
      ['min_duration=5&max_duration=1', 'max_duration'],
      ['q=a&q=b', 'q'],
    ];
    for (const [query, param] of cases) {
      const response = await server.get(`/api/v1/sounds?${query}`, { key });
      assert.equal(response.status, 400, query);
      const body = await response.json();
      assert.equal(typeof body.error, 'string', query);
      assert.ok(
        body.details.some((detail: { param: string }) => detail.param === param),
        `${query}: ${JSON.stringify(body.details)}`,
      );
      for (const detail of body.details) assert.equal(typeof detail.message, 'string');
    }
  });

  test(
    'search.signed: within one second every caller gets the same ' +
      'answer; the next second signs anew; a write shows at once',
    async () => {
      const other = await server.account('enterprise');
      const first = await server.get('/api/v1/sounds?q=laser&sort=name', { key });
      const second = await server.get('/api/v1/sounds?q=laser&sort=name', { key: other.key });
      assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
      const firstText = await first.text();
      assert.equal(await second.text(), firstText, 'the same bytes for both callers');
      assert.notEqual(
        first.headers.get('x-ratelimit-limit'),
        second.headers.get('x-ratelimit-limit'),
        "quota headers are each caller's own",
      );
      const exp = (text: string) => [...new Set([...text.matchAll(/exp=(\d+)/g)].map((match) => Number(match[1])))];
      assert.deepEqual(exp(firstText), [Math.floor(server.clock.now / 1000) + 3600]);

      server.clock.advance(1000);
      const later = await (await server.get('/api/v1/sounds?q=laser&sort=name', { key })).text();
      assert.deepEqual(exp(later), [Math.floor(server.clock.now / 1000) + 3600], 'URLs signed for the new second');
      assert.equal(
        later.replaceAll(/exp=\d+&kid=[\w-]+&sig=[\w-]+/g, ''),
        firstText.replaceAll(/exp=\d+&kid=[\w-]+&sig=[\w-]+/g, ''),
      );

      const { id } = await addSound(server.services, { name: 'Laser Sweep', tags: ['laser'] });
      const afterWrite = await search('q=laser&sort=name');
      assert.ok(
        afterWrite.data.some((sound) => sound.id === id),
        'the new sound is listed in the same second',
      );
      await server.services.database.db.deleteFrom('sounds').where('id', '=', id).execute();
      await server.services.catalog.changed();
    },
  );

  test(
    'search.memory: searches, the sample list and popular are ' +
      'answered from the index, without reading the sounds table',
    async () => {
      const { db } = server.services.database;
      const before = await (await server.get('/api/v1/sounds?q=laser&sort=name', { key })).text();
      await sql`ALTER TABLE sounds RENAME TO sounds_away`.execute(db);
      try {
        const during = await server.get('/api/v1/sounds?q=laser&sort=name', { key });
        assert.equal(during.status, 200);
        assert.equal(strip(await during.text()), strip(before));
        assert.equal((await server.get('/api/v1/sounds/popular?limit=3', { key })).status, 200);
        assert.equal((await server.get('/api/v1/sounds/sample')).status, 200);
      } finally {
        await sql`ALTER TABLE sounds_away RENAME TO sounds`.execute(db);
      }
    },
  );
});

/** An answer without its signatures, which change with the second. */
function strip(text: string): string {
  return text.replaceAll(/exp=\d+&kid=[\w-]+&sig=[\w-]+/g, '');
}

describe('search, punctuation', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    await addSound(server.services, { name: 'Glass Break', description: 'Glass, shattered (close).', tags: ['glass'] });
    await addSound(server.services, { name: 'Glass Close', description: 'Shattered glass, close', tags: [] });
  });
  after(() => server.close());

  test('search.q.punctuation: a word is found inside a token with punctuation at its ends, exactly as written', async () => {
    const found = async (q: string) => {
      const response = await server.get(`/api/v1/sounds?q=${encodeURIComponent(q)}`, { key });
      assert.equal(response.status, 200, q);
      return ((await response.json()) as { data: Listed[] }).data.map((sound) => sound.name).sort();
    };
    assert.deepEqual(await found('close'), ['Glass Break', 'Glass Close']);
    assert.deepEqual(await found('shattered'), ['Glass Break', 'Glass Close']);
    assert.deepEqual(await found('(close).'), ['Glass Break']);
    assert.deepEqual(await found('close).'), ['Glass Break']);
    assert.deepEqual(await found('(clo'), ['Glass Break']);
    assert.deepEqual(await found('glass,'), ['Glass Break', 'Glass Close']);
    assert.deepEqual(await found('shattered,'), []);
    assert.deepEqual(await found('close,'), []);
    assert.deepEqual(await found('e).'), ['Glass Break']);
    assert.deepEqual(await found(','), ['Glass Break', 'Glass Close']);
    assert.deepEqual(await found('.'), ['Glass Break']);
  });
});
