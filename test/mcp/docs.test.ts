import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

const DOC = path.resolve(import.meta.dirname, '../../docs/mcp.md');
const DOC_BASE_URL = 'http://127.0.0.1:3000';

/** The fenced blocks of one language in the document, in order. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1] ?? '');
}

describe('mcp.docs: the "Connect an MCP client" examples work as written', () => {
  let server: TestServer;
  let key: string;
  let markdown: string;
  /** The document's text with its placeholders pointed at the test server. */
  const live = (text: string) => text.replaceAll(DOC_BASE_URL, server.url).replaceAll('<API_KEY>', key);

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    await addSound(server.services, { name: 'Laser Zap', duration: 0.4, tags: ['laser'] });
    await addSound(server.services, { name: 'Laser Beam Long', duration: 2.5, tags: ['laser'] });
    markdown = await readFile(DOC, 'utf8');
  });
  after(() => server.close());

  it('the mcpServers configuration connects the SDK client with exactly its url and headers', async () => {
    const [json] = blocks(markdown, 'json');
    assert.ok(json, 'the document has a JSON configuration');
    const config = JSON.parse(live(json)) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
    const entry = config.mcpServers['sound-catalog'];
    assert.ok(entry);
    assert.deepEqual(Object.keys(entry.headers), ['x-api-key']);
    const client = new Client({ name: 'docs-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }));
    const { tools } = await client.listTools();
    for (const { name } of tools) assert.match(markdown, new RegExp(`\`${name}\``), `the document names ${name}`);
    await client.close();
  });

  it('the curl example, replayed with its own URL, headers and body, finds the short laser', async () => {
    const [shell] = blocks(markdown, 'sh');
    assert.ok(shell, 'the document has a curl example');
    const command = live(shell);
    const url = /curl -s (\S+)/.exec(command)?.[1];
    const headers = Object.fromEntries([...command.matchAll(/-H '([^:]+): ([^']+)'/g)].map((match) => [match[1], match[2]]));
    const body = /-d '([^']+)'/.exec(command)?.[1];
    assert.ok(url && body);
    const response = await fetch(url, { method: 'POST', headers, body });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as { id: number; result: { structuredContent: { data: Array<{ name: string }> } } };
    assert.equal(answer.id, 1);
    assert.deepEqual(answer.result.structuredContent.data.map((sound) => sound.name), ['Laser Zap']);
  });
});
