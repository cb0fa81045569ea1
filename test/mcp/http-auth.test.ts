import { soundTools } from '../../src/mcp/tools/index.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { connectMcp, postMcp } from './mcp-client.ts';

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

describe('mcp.http-auth: /mcp checks the key at the HTTP level, with the REST answers', () => {
  let server: TestServer;
  let proKey: string;
  let freeKey: string;

  before(async () => {
    server = await startServer();
    ({ key: proKey } = await server.account('pro'));
    ({ key: freeKey } = await server.account('free'));
  });
  after(() => server.close());

  /** The same headers against REST search and against /mcp: same status, same body. */
  async function sameAsRest(headers: Record<string, string>, status: number) {
    const rest = await server.get('/api/v1/sounds', { headers });
    const mcp = await postMcp(server, LIST_TOOLS, headers);
    assert.equal(rest.status, status);
    assert.equal(mcp.status, status);
    assert.match(mcp.headers.get('content-type') ?? '', /application\/json/);
    const body = await mcp.json();
    assert.deepEqual(body, await rest.json());
    return body as { error: string; upgrade_url?: string };
  }

  it('no key: 401 { error } naming the x-api-key header', async () => {
    const body = await sameAsRest({}, 401);
    assert.match(body.error, /x-api-key/);
  });

  it('Authorization: Bearer with a valid key, but no x-api-key: 401', async () => {
    await sameAsRest({ authorization: `Bearer ${proKey}` }, 401);
  });

  it('an unknown or malformed key: 401', async () => {
    await sameAsRest({ 'x-api-key': 'sc_not-a-real-key' }, 401);
    await sameAsRest({ 'x-api-key': 'garbage' }, 401);
  });

  it('a free plan key: 403 { error, upgrade_url }', async () => {
    const body = await sameAsRest({ 'x-api-key': freeKey }, 403);
    assert.equal(body.upgrade_url, `${server.url}/dashboard/upgrade`);
  });

  it('the key is checked before the body is even read', async () => {
    const response = await postMcp(server, '{ not json');
    assert.equal(response.status, 401);
  });

  it('the SDK client cannot connect with a bad key', async () => {
    const refusedWith = (status: number, message: RegExp) => (error: unknown) => {
      assert.equal((error as { code?: number }).code, status);
      assert.match(String(error), message);
      return true;
    };
    await assert.rejects(connectMcp(server, 'sc_not-a-real-key'), refusedWith(401, /Invalid API key/));
    await assert.rejects(connectMcp(server, freeKey), refusedWith(403, /upgrade_url/));
  });

  it('GET and DELETE are authenticated too, then answer 405 with a JSON-RPC error (stateless server)', async () => {
    assert.equal((await fetch(`${server.url}/mcp`)).status, 401);
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.url}/mcp`, {
        method,
        headers: { 'x-api-key': proKey, accept: 'text/event-stream' },
      });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
      const body = (await response.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } };
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.id, null);
      assert.match(body.error.message, /Method not allowed/);
    }
  });

  it('a body that is not JSON gets a JSON-RPC parse error', async () => {
    const response = await postMcp(server, '{ not json', { 'x-api-key': proKey });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { code: number } };
    assert.equal(body.error.code, -32700);
  });

  it('a body that is JSON but not JSON-RPC is refused by the transport, not a crash', async () => {
    const response = await postMcp(server, { hello: 'world' }, { 'x-api-key': proKey });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32700);
  });

  it('a valid key reaches the MCP layer without any initialize (stateless)', async () => {
    const response = await postMcp(server, LIST_TOOLS, { 'x-api-key': proKey });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { id: number; result: { tools: unknown[] } };
    assert.equal(body.id, 1);
    assert.equal(body.result.tools.length, soundTools.length);
  });
});
