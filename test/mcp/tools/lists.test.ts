import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { callTool, connectMcp, textOf } from '../mcp-client.ts';

describe('mcp.lists: list_popular and list_samples give what their REST endpoints give', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  let popularId: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    await addSound(server.services, { name: 'Bird Song', tags: ['bird', 'nature'], sample: true, category: 'AMBIENT' });
    await addSound(server.services, { name: 'Thunder Clap', tags: ['storm'], sample: true });
    ({ id: popularId } = await addSound(server.services, { name: 'Power Up', tags: ['game'] }));
    await server.services.catalog.countDownload(popularId);
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const restBody = async (path: string, withKey: boolean) => {
    const response = await server.get(path, withKey ? { key } : {});
    assert.equal(response.status, 200);
    return (await response.json()) as { data: unknown[]; pagination: unknown; meta?: unknown };
  };

  it(
    'list_popular matches GET /api/v1/sounds/popular walked from the top (cursor=), ' + 'most downloaded first',
    async () => {
      const result = await callTool(client, 'list_popular', { limit: 2, detail: 'full' });
      const rest = await restBody('/api/v1/sounds/popular?limit=2&cursor=', true);
      assert.deepEqual(result.structuredContent, { data: rest.data, pagination: rest.pagination });
      const { next_cursor: _cursor, ...asDocumented } = rest.pagination as { next_cursor: string };
      const withoutCursor = await restBody('/api/v1/sounds/popular?limit=2', true);
      assert.deepEqual(
        withoutCursor,
        { data: rest.data, pagination: asDocumented },
        "without a cursor, the API document's shape",
      );
      assert.equal((rest.data[0] as { id: string }).id, popularId);
      assert.match(
        textOf(result),
        /^3 sounds in all; page 1 of 2, 2 shown \(2 per page\):\n- Power Up .* · 1 download$/m,
      );
    },
  );

  it('list_popular defaults to 30 like REST', async () => {
    const result = await callTool(client, 'list_popular', { detail: 'full' });
    const rest = await restBody('/api/v1/sounds/popular?cursor=', true);
    assert.deepEqual(result.structuredContent, { data: rest.data, pagination: rest.pagination });
  });

  it(
    'list_samples matches the public sample list (without its sign-up invitation), and says where a walk would go ' +
      'on',
    async () => {
      const result = await callTool(client, 'list_samples', { detail: 'full' });
      const rest = await restBody('/api/v1/sounds/sample', false);
      assert.deepEqual(result.structuredContent, {
        data: rest.data,
        pagination: { ...(rest.pagination as object), next_cursor: null },
      });
      assert.equal(rest.data.length, 2);
      assert.match(textOf(result), /^2 samples in all/);
    },
  );

  it('list_samples filters by keyword and by any of its tags (OR), as REST does', async () => {
    const byTags = await callTool(client, 'list_samples', { tags: ['bird', 'storm'], detail: 'full' });
    assert.equal((byTags.structuredContent as { data: unknown[] }).data.length, 2);
    const byWord = await callTool(client, 'list_samples', { q: 'thunder', limit: 5, detail: 'full' });
    const rest = await restBody('/api/v1/sounds/sample?q=thunder&limit=5', false);
    assert.deepEqual(byWord.structuredContent, {
      data: rest.data,
      pagination: { ...(rest.pagination as object), next_cursor: null },
    });
  });
});

interface ListAnswer {
  data: Array<{ id: string; numDownloads?: number }>;
  pagination: { page: number; limit: number; total: number; totalPages: number; next_cursor: string | null };
}

describe('mcp.lists.walks: list_popular and list_samples walk by cursor', () => {
  let server: TestServer;
  let client: Client;
  let key: string;
  const ids: string[] = [];
  const samples: string[] = [];

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    for (let i = 0; i < 12; i++) {
      const { id } = await addSound(server.services, { name: `Walk ${i}`, tags: ['walk'], sample: i < 5 });
      ids.push(id);
      if (i < 5) samples.push(id);
      // Counts 0 to 3, so that ties by id are common.
      for (let n = 0; n < i % 4; n++) await server.services.catalog.countDownload(id);
    }
    client = await connectMcp(server, key);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const listPopular = async (args: Record<string, unknown>) => {
    const result = await callTool(client, 'list_popular', { detail: 'full', ...args });
    assert.notEqual(result.isError, true, textOf(result));
    return result.structuredContent as unknown as ListAnswer;
  };
  const restPopular = async (query: string) => {
    const response = await server.get(`/api/v1/sounds/popular?${query}`, { key });
    assert.equal(response.status, 200);
    return (await response.json()) as ListAnswer;
  };
  /** The ranking as it stands: REST's list of every sound, most downloaded first. */
  const ranking = async () =>
    (await restPopular('limit=100')).data.map(({ id, numDownloads }) => ({ id, numDownloads: numDownloads! }));

  it(
    'list_popular: without a cursor, with an empty one and on REST, ' + 'the same first page and a cursor to go on',
    async () => {
      const plain = await listPopular({ limit: 3 });
      assert.deepEqual(await listPopular({ limit: 3, cursor: '' }), plain);
      assert.deepEqual(await restPopular('limit=3&cursor='), plain);
      const { next_cursor: _cursor, ...asDocumented } = plain.pagination;
      assert.deepEqual(await restPopular('limit=3'), { data: plain.data, pagination: asDocumented });
      assert.equal(plain.data.length, 3);
      assert.deepEqual(plain.pagination, {
        page: 1,
        limit: 3,
        total: 12,
        totalPages: 4,
        next_cursor: plain.pagination.next_cursor,
      });
      assert.ok(plain.pagination.next_cursor);
      assert.match(
        textOf(await callTool(client, 'list_popular', { limit: 3 })),
        /\nNext page: cursor "[A-Za-z0-9_-]+"\.$/,
      );
    },
  );

  it(
    "list_popular walks the ranking a page at a time, MCP and REST taking each other's cursors, while sounds are " +
      'downloaded and added: each page the next of the ranking as it then is, none twice, every sound not downloaded ' +
      'meanwhile once',
    async () => {
      const downloaded = new Set<string>();
      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; ; page++) {
        const before = await ranking();
        const answer =
          page % 2 === 0 ? await listPopular({ limit: 3, cursor }) : await restPopular(`limit=3&cursor=${cursor}`);
        // The page is the ranking's next three below the last sound listed.
        const last = seen.length === 0 ? -1 : before.findIndex(({ id }) => id === seen[seen.length - 1]);
        const expected =
          seen.length === 0
            ? before.slice(0, 3)
            : before
                .slice(last + 1)
                .filter(({ id }) => !seen.includes(id))
                .slice(0, 3);
        assert.deepEqual(
          answer.data.map(({ id }) => id),
          expected.map(({ id }) => id),
          `page ${page + 1}`,
        );
        seen.push(...answer.data.map(({ id }) => id));
        if (answer.pagination.next_cursor === null) break;
        cursor = answer.pagination.next_cursor;
        if (page === 0) {
          // A sound already listed is downloaded: it stays above the walk and does not come again.
          for (let n = 0; n < 5; n++) await server.services.catalog.countDownload(seen[0]!);
          downloaded.add(seen[0]!);
          // A sound not reached yet is downloaded far past the walk's place: this walk does not list it.
          const climber = before[before.length - 1]!.id;
          for (let n = 0; n < 10; n++) await server.services.catalog.countDownload(climber);
          downloaded.add(climber);
        }
        if (page === 1) await addSound(server.services, { name: 'Walk late', tags: ['walk'] });
      }
      assert.equal(new Set(seen).size, seen.length, 'no sound twice');
      for (const id of ids) if (!downloaded.has(id)) assert.ok(seen.includes(id), `${id} listed`);
      assert.equal(
        seen.includes(ids.find((id) => downloaded.has(id) && !seen.slice(0, 3).includes(id))!),
        false,
        'the sound that climbed past the walk is not listed by it',
      );
    },
  );

  it(
    'list_popular refuses a cursor it did not give out; ' + 'REST popular, which lists no 400, walks from the top',
    async () => {
      const search = (await (await server.get('/api/v1/sounds?cursor=&limit=1', { key })).json()) as ListAnswer;
      for (const forged of ['not-a-cursor', search.pagination.next_cursor!]) {
        const result = await callTool(client, 'list_popular', { cursor: forged });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /not a cursor list_popular gave out/);
        assert.deepEqual(await restPopular(`limit=3&cursor=${forged}`), await restPopular('limit=3&cursor='));
      }
    },
  );

  it(
    'list_samples walks the samples by id: each once, a sample added meanwhile at most once, next_cursor null at ' +
      'the end',
    async () => {
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      for (;;) {
        const result = await callTool(client, 'list_samples', { limit: 2, cursor, detail: 'full' });
        assert.notEqual(result.isError, true, textOf(result));
        const answer = result.structuredContent as unknown as ListAnswer;
        assert.ok(answer.data.length <= 2);
        seen.push(...answer.data.map(({ id }) => id));
        pages++;
        if (answer.pagination.next_cursor === null) break;
        cursor = answer.pagination.next_cursor;
        if (pages === 1) await addSound(server.services, { name: 'Walk late sample', sample: true });
      }
      assert.equal(new Set(seen).size, seen.length);
      for (const id of samples) assert.ok(seen.includes(id), `${id} listed`);
      assert.deepEqual(seen, [...seen].sort(), 'in id order');
      const forged = await callTool(client, 'list_samples', { cursor: 'not-a-cursor' });
      assert.equal(forged.isError, true);
      assert.match(textOf(forged), /not a cursor list_samples gave out/);
    },
  );
});
