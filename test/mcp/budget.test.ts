import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { postMcp } from './mcp-client.ts';

const run = promisify(execFile);
/** The official MCP Inspector's command line (a devDependency), as a client that is not ours measures it. */
const INSPECTOR = path.resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js',
);

/** What an agent pays before it does anything, and for one page of search results (issue 40). */
const TOOLS_LIST_BUDGET = 12_000;
const SEARCH_PAGE_BUDGET = 4_000;

/** A catalog description as long as real ones run: the concise shape must cut it, not the fixture. */
const LONG_DESCRIPTION =
  'A short bright laser zap with a falling pitch sweep and a soft metallic ring at the end, ' +
  'recorded for retro arcade games; layered with a sine sub and light bit-crushing, peak-normalised, no reverb tail.';

describe('mcp.budget: tools/list and a page of search results stay within what an agent can afford', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    for (let index = 0; index < 12; index += 1) {
      await addSound(server.services, {
        name: `Retro Laser Zap Variation ${index + 1}`,
        description: LONG_DESCRIPTION,
        tags: ['laser', 'retro', 'arcade', 'zap', 'sci-fi'],
        category: 'SFX',
        duration: 1.234567,
      });
    }
  });
  after(() => server.close());

  const inspect = async (...flags: string[]) => {
    const { stdout } = await run(
      process.execPath,
      [INSPECTOR, '--cli', `${server.url}/mcp`, '--transport', 'http', '--header', `x-api-key: ${key}`, ...flags],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
    );
    return JSON.parse(stdout) as Record<string, unknown>;
  };
  /** The whole HTTP body of one JSON-RPC request, envelope included. */
  const bodyOf = async (method: string, params: Record<string, unknown> = {}) => {
    const response = await postMcp(server, { jsonrpc: '2.0', id: 1, method, params }, { 'x-api-key': key });
    assert.equal(response.status, 200);
    return response.text();
  };

  it(`tools/list (Inspector CLI and HTTP body) is at most ${TOOLS_LIST_BUDGET} bytes`, async () => {
    const listed = (await inspect('--method', 'tools/list')) as { tools: unknown[] };
    assert.equal(listed.tools.length, 11);
    const inspected = Buffer.byteLength(JSON.stringify(listed));
    const body = Buffer.byteLength(await bodyOf('tools/list'));
    console.log(`tools/list: ${inspected} bytes (Inspector result), ${body} bytes (HTTP body)`);
    assert.ok(body <= TOOLS_LIST_BUDGET, `tools/list body is ${body} bytes`);
  });

  it(`a concise 10-result search_sounds answer (all of it) is at most ${SEARCH_PAGE_BUDGET} bytes`, async () => {
    const text = await bodyOf('tools/call', { name: 'search_sounds', arguments: { q: 'laser', limit: 10 } });
    const { result } = JSON.parse(text) as {
      result: { structuredContent: { data: Array<Record<string, unknown>> } };
    };
    assert.equal(result.structuredContent.data.length, 10);
    const [first] = result.structuredContent.data;
    assert.deepEqual(Object.keys(first!).sort(), ['category', 'description', 'duration', 'id', 'name']);
    assert.ok(
      String(first!.description).length <= 80 && String(first!.description).endsWith('…'),
      'the description is cut short',
    );
    const full = await bodyOf('tools/call', {
      name: 'search_sounds',
      arguments: { q: 'laser', limit: 10, detail: 'full' },
    });
    const inspected = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'search_sounds',
      '--tool-arg',
      'q=laser',
      'limit=10',
    );
    console.log(
      `search_sounds, 10 results: ${Buffer.byteLength(text)} bytes concise, ${Buffer.byteLength(full)} bytes full ` +
        `(HTTP bodies); ${Buffer.byteLength(JSON.stringify(inspected))} bytes concise (Inspector result)`,
    );
    assert.ok(Buffer.byteLength(text) <= SEARCH_PAGE_BUDGET, `concise search body is ${Buffer.byteLength(text)} bytes`);
  });
});
