import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { statusOf } from '../helpers/http.ts';
import { checkAnswersIn, checkAnswersOf, stopCheckingAnswersOf, takeMismatches } from '../helpers/openapi-answers.ts';
import { checkerOf, type OpenApiDocument } from '../helpers/openapi-checker.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

interface ListAnswer {
  data: Array<{ id: string }>;
  pagination: Record<string, unknown> & { next_cursor?: string | null };
}

const DOCUMENTED_PAGINATION = ['page', 'limit', 'total', 'totalPages'];
/** A search answered with one pagination field too many, as the helpers' fetch reports it. */
const WRONG_SEARCH = new RegExp(
  '^Error: The answer does not match the served OpenAPI document: ' +
    'GET /api/v1/sounds answered 200 application/json(; charset=utf-8)?: ' +
    "not searchSounds \\(GET /api/v1/sounds\\)'s documented 200 answer\n" +
    '.*/pagination must NOT have additional properties \\{"additionalProperty":"next_page"\\}',
  's',
);
const WRONG_BODY = { data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, next_page: null } };

describe('openapi.answers: every answer the suite receives is checked against the served document', () => {
  let server: TestServer;
  let key: string;
  let document: OpenApiDocument;
  const get = async (path: string): Promise<ListAnswer> => {
    // The test server checks this answer against its /openapi.json as it sends it.
    const response = await server.get(path, { key });
    assert.equal(response.status, 200, path);
    return (await response.json()) as ListAnswer;
  };

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    for (let i = 0; i < 5; i++) await addSound(server.services, { name: `Answer ${i}`, tags: ['answer'] });
    document = (await (await server.get('/openapi.json')).json()) as OpenApiDocument;
  });
  after(() => server.close());

  test(
    'openapi.answers.pages: search and popular asked without ' + "a cursor have exactly the API document's pagination",
    async () => {
      for (const path of ['/api/v1/sounds?limit=2', '/api/v1/sounds?page=2&sort=name', '/api/v1/sounds/popular']) {
        const { pagination } = await get(path);
        assert.deepEqual(Object.keys(pagination), DOCUMENTED_PAGINATION, path);
      }
    },
  );

  test('openapi.answers.walks: a page of a cursor walk has next_cursor, a string until the last page', async () => {
    for (const list of ['/api/v1/sounds', '/api/v1/sounds/popular']) {
      const seen: string[] = [];
      let cursor = '';
      for (let pages = 0; pages < 10; pages++) {
        const { data, pagination } = await get(`${list}?limit=2&cursor=${cursor}`);
        assert.deepEqual(Object.keys(pagination), [...DOCUMENTED_PAGINATION, 'next_cursor'], list);
        seen.push(...data.map((sound) => sound.id));
        if (pagination.next_cursor === null) break;
        assert.equal(typeof pagination.next_cursor, 'string');
        cursor = pagination.next_cursor!;
      }
      assert.equal(new Set(seen).size, 5, `${list} walked every sound once`);
    }
  });

  test('openapi.answers.refused: an extra or missing field, an unlisted status, operation or type fail, named', () => {
    const checker = checkerOf(document);
    const search = (body: unknown, status = 200, contentType = 'application/json; charset=utf-8', method = 'GET') =>
      checker.mismatch({ method, url: '/api/v1/sounds?limit=2', status, contentType, body: JSON.stringify(body) }) ??
      '';
    const page = { page: 1, limit: 2, total: 5, totalPages: 3 };
    assert.equal(search({ data: [], pagination: page }), '');
    assert.equal(search({ data: [], pagination: { ...page, next_cursor: 'abc' } }), '');
    assert.equal(search({ data: [], pagination: { ...page, next_cursor: null } }), '');
    const extraField = search({ data: [], pagination: { ...page, pages: 3 } });
    assert.match(
      extraField,
      new RegExp(
        '^GET /api/v1/sounds\\?limit=2 answered 200 ' +
          ".*not searchSounds \\(GET /api/v1/sounds\\)'s documented 200 answer\n" +
          '.*/pagination must NOT have additional properties \\{"additionalProperty":"pages"\\}',
        's',
      ),
    );
    assert.match(
      search({ data: [], pagination: { page: 1, limit: 2, total: 5 } }),
      /\/pagination must have required property 'totalPages'/,
    );
    assert.match(
      search({ data: [], pagination: page, extra: true }),
      /\(body\) must NOT have additional properties \{"additionalProperty":"extra"\}/,
    );
    assert.match(search({ error: 'Not found' }, 404), /searchSounds \(GET \/api\/v1\/sounds\) lists no 404 answer/);
    assert.match(
      search({ data: [], pagination: page }, 200, 'text/html'),
      /searchSounds .*'s 200 answer is documented as application\/json/,
    );
    assert.match(
      search({ data: [], pagination: page }, 200, 'application/json', 'POST'),
      /describes no such operation/,
    );
    // What does not exist is answered 404 in the error shape; the pages outside the API are not the document's.
    const at = (url: string, status: number, body: unknown) =>
      checker.mismatch({ method: 'GET', url, status, contentType: 'application/json', body: JSON.stringify(body) });
    assert.equal(at('/api/v1/nothing', 404, { error: 'Not found' }), null);
    assert.match(at('/api/v1/nothing', 404, { message: 'Not found' }) ?? '', /must have required property 'error'/);
    assert.match(at('/api/v1/nothing', 200, {}) ?? '', /describes no such operation/);
    assert.equal(at('/dashboard/keys', 200, {}), null);
    assert.equal(at('/media/abc', 403, {}), null);
  });

  test(
    'openapi.answers.in-process: a wrong answer of an app ' + 'fails, whatever the client, naming operation and error',
    async () => {
      // A stand-in app that answers a search with one pagination field too many.
      const liar = Fastify();
      checkAnswersIn(liar, () => document);
      liar.get('/api/v1/sounds', async () => WRONG_BODY);
      const url = await liar.listen({ port: 0, host: '127.0.0.1' });
      try {
        await assert.rejects(fetch(`${url}/api/v1/sounds`), WRONG_SEARCH);
        assert.equal(await statusOf(`${url}/api/v1/sounds`, {}), 200, 'another client gets the answer as sent');
        const taken = takeMismatches();
        assert.equal(taken.length, 2, 'both recorded: they would fail the file at exit had the test not taken them');
        assert.match(taken[1]!, /additionalProperty":"next_page"/);
      } finally {
        await liar.close();
      }
    },
  );

  test("openapi.answers.serve: the suite's fetch rejects a wrong answer of a server in another process", async () => {
    const liar: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(WRONG_BODY));
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(liar.address() as { port: number }).port}`;
    try {
      await checkAnswersOf(url, () => document);
      await assert.rejects(fetch(`${url}/api/v1/sounds`), WRONG_SEARCH);
      assert.equal(takeMismatches().length, 1);
    } finally {
      stopCheckingAnswersOf(url);
      await new Promise((resolve) => liar.close(resolve));
    }
  });
});
