import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { callTool, connectMcp, textOf } from '../mcp-client.ts';

interface SearchResult {
  data: Array<{ id: string; name: string; duration: number }>;
  pagination: { page: number; limit: number; total: number; totalPages: number; next_cursor?: string | null };
  facets?: { category?: Record<string, number>; tags?: Array<{ tag: string; count: number }> };
}

describe('mcp.search-sounds: an agent finds sounds the way REST search does', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    ids.zap = (
      await addSound(server.services, {
        name: 'Laser Zap',
        duration: 0.4,
        tags: ['laser', 'sci-fi'],
        description: 'A short retro zap',
      })
    ).id;
    ids.beam = (await addSound(server.services, { name: 'Laser Beam Long', duration: 2.5, tags: ['laser'] })).id;
    ids.coin = (await addSound(server.services, { name: 'Coin Pickup', duration: 0.3, tags: ['coin', 'game'] })).id;
    ids.rain = (
      await addSound(server.services, { name: 'Rain On Roof', duration: 30, tags: ['rain'], category: 'AMBIENT' })
    ).id;
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const search = async (args: Record<string, unknown>) => {
    // The REST shapes: concise answers are checked in budget.test.ts.
    const result = await callTool(client, 'search_sounds', { detail: 'full', ...args });
    assert.notEqual(result.isError, true, textOf(result));
    return { result, structured: result.structuredContent as unknown as SearchResult };
  };
  const restSearch = async (query: string) => {
    const response = await server.get(`/api/v1/sounds?${query}`, { key });
    assert.equal(response.status, 200);
    return (await response.json()) as SearchResult;
  };

  it('finds "a short laser zap under 1 s" and nothing longer', async () => {
    const { structured } = await search({ q: 'laser', max_duration: 1 });
    assert.deepEqual(
      structured.data.map((sound) => sound.name),
      ['Laser Zap'],
    );
    assert.equal(structured.data[0]?.id, ids.zap);
  });

  it('answers with exactly the data and pagination REST gives for the same query', async () => {
    const { structured } = await search({ q: 'laser', max_duration: 1 });
    assert.deepEqual(structured, await restSearch('q=laser&max_duration=1'));
    const all = await search({});
    assert.deepEqual(all.structured, await restSearch(''));
  });

  it('reads tags as an array or a comma-separated string, in any case, ANDed like REST', async () => {
    const asArray = await search({ tags: ['laser', 'SCI-FI'] });
    const asString = await search({ tags: 'laser, sci-fi' });
    assert.deepEqual(asArray.structured, asString.structured);
    assert.deepEqual(
      asArray.structured.data.map((sound) => sound.id),
      [ids.zap],
    );
    assert.deepEqual(asString.structured, await restSearch('tags=laser,sci-fi'));
  });

  it('filters by category (one or several, any case) and duration range', async () => {
    const ambient = await search({ category: 'ambient' });
    assert.deepEqual(
      ambient.structured.data.map((sound) => sound.id),
      [ids.rain],
    );
    const both = await search({ category: ['SFX', 'AMBIENT'], min_duration: 0.35, max_duration: 30 });
    assert.deepEqual(new Set(both.structured.data.map((sound) => sound.id)), new Set([ids.zap, ids.beam, ids.rain]));
  });

  it('sorts, orders and pages like REST', async () => {
    const shortestFirst = await search({ sort: 'duration', order: 'asc' });
    assert.deepEqual(
      shortestFirst.structured.data.map((sound) => sound.name),
      ['Coin Pickup', 'Laser Zap', 'Laser Beam Long', 'Rain On Roof'],
    );
    const second = await search({ sort: 'duration', order: 'asc', limit: 1, page: 2 });
    assert.deepEqual(
      second.structured.data.map((sound) => sound.name),
      ['Laser Zap'],
    );
    assert.deepEqual(second.structured.pagination, { page: 2, limit: 1, total: 4, totalPages: 4 });
    assert.deepEqual(second.structured, await restSearch('sort=duration&order=asc&limit=1&page=2'));
  });

  it('renders one compact line per sound for models that read text', async () => {
    const { result } = await search({ q: 'laser', max_duration: 1 });
    assert.equal(
      textOf(result),
      '1 sound in all; page 1 of 1, 1 shown (20 per page):\n' +
        `- Laser Zap [id ${ids.zap}] · 0.4 s · SFX · tags: laser, sci-fi · -18.2 LUFS · onset 12.5 ms`,
    );
  });

  it('takes the extension filters, relevance and facets, answering as REST does', async () => {
    const relevance = await search({
      q: 'laser',
      sort: 'relevance',
      min_lufs: -20,
      max_lufs: -18,
      max_onset_ms: 12.5,
      facets: ['category', 'tags'],
    });
    assert.deepEqual(
      relevance.structured,
      await restSearch('q=laser&sort=relevance&min_lufs=-20&max_lufs=-18&max_onset_ms=12.5&facets=category,tags'),
    );
    assert.deepEqual(relevance.structured.facets, {
      category: { SFX: 2, MUSIC: 0, LOFI: 0, AMBIENT: 0 },
      tags: [
        { tag: 'laser', count: 2 },
        { tag: 'sci-fi', count: 1 },
      ],
    });
    assert.match(
      textOf(relevance.result),
      /\nby category: SFX 2, MUSIC 0, LOFI 0, AMBIENT 0\ntop tags: laser 2, sci-fi 1$/,
    );
    const tight = await search({ max_onset_ms: 12 });
    assert.deepEqual(tight.structured, { data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it('says plainly when nothing matches', async () => {
    const { result, structured } = await search({ q: 'trombone' });
    assert.deepEqual(structured, { data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
    assert.match(textOf(result), /^No sounds match/);
  });

  it(
    'walks the catalog with cursors as REST does: ' + 'the same pages, and a walk begun on one goes on on the other',
    async () => {
      const first = await search({ cursor: '', limit: 2 });
      assert.deepEqual(first.structured, await restSearch('cursor=&limit=2'));
      const next = (first.structured.pagination as { next_cursor: string | null }).next_cursor;
      assert.ok(next);
      const rest = await restSearch(`cursor=${next}&limit=2`);
      assert.deepEqual((await search({ cursor: next, limit: 2 })).structured, rest);
      assert.deepEqual(
        [...first.structured.data, ...rest.data].map((sound: { id: string }) => sound.id).sort(),
        Object.values(ids).sort(),
      );
      assert.equal(rest.pagination.next_cursor, null);
      const forged = await callTool(client, 'search_sounds', { cursor: 'not-a-cursor' });
      assert.equal(forged.isError, true);
      assert.match(textOf(forged), /not a cursor search_sounds gave out/);
    },
  );
});
