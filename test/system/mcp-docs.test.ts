import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { utcDay } from '../../src/quota/quota.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';

const DOC = path.resolve(import.meta.dirname, '../../docs/mcp.md');
const DOC_BASE_URL = 'http://127.0.0.1:3000';

/** The fenced blocks of one language in the document, in order. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1] ?? '',
  );
}

describe('mcp.docs: the "Connect an MCP client" examples work as written', () => {
  let server: TestServer;
  let key: string;
  let laserId: string;
  let markdown: string;
  /** The document's text with its placeholders pointed at the test server. */
  const live = (text: string) => text.replaceAll(DOC_BASE_URL, server.url).replaceAll('<API_KEY>', key);

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('pro'));
    // A real MP3: the session previews it and reads its blob.
    ({ id: laserId } = await addRealSound(server.services, tone(0.4, 0.3, 1200), 'Laser Zap', ['laser']));
    await addSound(server.services, { name: 'Laser Beam Long', duration: 2.5, tags: ['laser'] });
    markdown = await readFile(DOC, 'utf8');
  });
  after(() => server.close());

  it('the mcpServers configuration connects the SDK client with exactly its url and headers', async () => {
    const [json] = blocks(markdown, 'json');
    assert.ok(json, 'the document has a JSON configuration');
    const config = JSON.parse(live(json)) as {
      mcpServers: Record<string, { url: string; headers: Record<string, string> }>;
    };
    const entry = config.mcpServers['sound-catalog'];
    assert.ok(entry);
    assert.deepEqual(Object.keys(entry.headers), ['x-api-key']);
    const client = new Client({ name: 'docs-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }),
    );
    const { tools } = await client.listTools();
    for (const { name } of tools) assert.match(markdown, new RegExp(`\`${name}\``), `the document names ${name}`);
    await client.close();
  });

  it('the curl example, replayed with its own URL, headers and body, finds the short laser', async () => {
    const [shell] = blocks(markdown, 'sh');
    assert.ok(shell, 'the document has a curl example');
    const command = live(shell);
    const url = /curl -s (\S+)/.exec(command)?.[1];
    const headers = Object.fromEntries(
      [...command.matchAll(/-H '([^:]+): ([^']+)'/g)].map((match) => [match[1], match[2]]),
    );
    const body = /-d '([^']+)'/.exec(command)?.[1];
    assert.ok(url && body);
    const response = await fetch(url, { method: 'POST', headers, body });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as {
      id: number;
      result: { structuredContent: { data: Array<{ name: string }> } };
    };
    assert.equal(answer.id, 1);
    assert.deepEqual(
      answer.result.structuredContent.data.map((sound) => sound.name),
      ['Laser Zap'],
    );
  });

  it(
    'the session with resources, a preview and a prompt, replayed request ' +
      'by request, answers as shown and spends the fifteen requests it says',
    async () => {
      const session = markdown.slice(markdown.indexOf('## A session with resources'));
      // Each request block and the abbreviated answer block after it.
      const steps = [...session.matchAll(/```json\n([\s\S]*?)```(?:\s*[^`]*?```text\n([\s\S]*?)```)?/g)].map(
        (match) => ({
          request: match[1]!.trim(),
          answer: match[2] ?? '',
        }),
      );
      assert.equal(steps.length, 6);
      assert.equal(steps.filter((step) => step.answer !== '').length, 5, 'every request but the last shows its answer');
      const { account, key: sessionKey } = await server.account('pro');
      const withId = (text: string) => text.replaceAll('<SOUND_ID>', laserId);
      const answers: Array<{ result: Record<string, unknown> }> = [];
      for (const { request, answer } of steps) {
        const response = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'x-api-key': sessionKey,
          },
          body: withId(request),
        });
        assert.equal(response.status, 200, request);
        const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
        assert.ok(body.result, `${request} answers ${JSON.stringify(body.error)}`);
        answers.push(body as { result: Record<string, unknown> });
        // Every content type, MIME type and link the abbreviated answer shows is in the real one.
        const real = JSON.stringify(body.result);
        if (answer !== '') assert.match(answer, /"(type|mimeType|uri|name)":"/, 'the answer shows something to check');
        for (const shown of withId(answer).match(/"(type|mimeType|uri|name)":"[^"…]*"/g) ?? [])
          assert.ok(real.includes(shown), `${shown} in ${real.slice(0, 300)}`);
      }
      const [prompt, search, preview, read] = answers.map((answer) => answer.result);
      assert.match(JSON.stringify(prompt), /No sound may last longer than 1 s\./);
      assert.deepEqual(
        (search!.structuredContent as { data: Array<{ id: string }> }).data.map((sound) => sound.id),
        [laserId],
      );
      const loudness = (preview!.structuredContent as { preview: { loudness: { integrated_lufs: number } } }).preview
        .loudness;
      assert.ok(Math.abs(loudness.integrated_lufs - -16) <= 1);
      assert.deepEqual(
        (read!.contents as Array<{ mimeType: string }>).map((content) => content.mimeType),
        ['application/json', 'audio/mpeg'],
      );
      // One each for the search, the preview, the read and the two pages of resources; ten for making
      // the preview (its first time).
      assert.equal((await server.services.usageHistory.usage(account.id, [utcDay(server.clock.now)]))[0], 15);
    },
  );
});
