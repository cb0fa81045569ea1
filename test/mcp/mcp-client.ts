import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '../helpers/server.ts';

/** The SDK's own client, connected over real HTTP to the server's /mcp with an API key. */
export async function connectMcp(server: TestServer, key: string): Promise<Client> {
  const client = new Client({ name: 'sound-catalog-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { 'x-api-key': key } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its result in the shape every tool answers with. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's first content item (all our tools answer with one text item). */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`expected a text item, got ${JSON.stringify(result.content)}`);
  return first.text;
}

/** POSTs raw JSON-RPC to /mcp with fetch, for what the SDK client would never send. */
export function postMcp(server: TestServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
