import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { FastifyBaseLogger } from 'fastify';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListPromptsRequestSchema,
  type JSONRPCRequest,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

interface RequestSchema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: Array<{ message: string; path: PropertyKey[] }> } };
}

/**
 * The SDK's own schema of each method this server answers (a Map: a method named `__proto__` or
 * `constructor` must find nothing). resources/list is left out: its handler takes any cursor and
 * refuses a bad one itself (resources/sound-resource.ts).
 */
const REQUEST_SCHEMAS = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/templates/list', ListResourceTemplatesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
  ['prompts/list', ListPromptsRequestSchema],
  ['prompts/get', GetPromptRequestSchema],
]);

/**
 * Answers a request whose params do not fit its method with -32602 Invalid params, naming what is
 * wrong, before the SDK sees it: the SDK (1.32) lets such a request fail inside its dispatch and
 * answers -32603 Internal error (with a dump of the schema issues, or "Invalid URL"), which tells
 * a client the server broke when its own call was wrong. Call after `server.connect(transport)`,
 * which sets onmessage.
 */
export function refuseInvalidParams(transport: Transport, log: FastifyBaseLogger): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('connect the MCP server to the transport first');
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) ? problemOf(message) : null;
    if (problem === null) return deliver(message, extra);
    const { id, method } = message as JSONRPCRequest;
    transport
      .send({
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}: ${problem}` },
      })
      .catch((error: unknown) => log.warn({ err: error }, 'answering invalid MCP params failed'));
  };
}

function problemOf(request: JSONRPCRequest): string | null {
  const parsed = REQUEST_SCHEMAS.get(request.method)?.safeParse(request);
  if (parsed && !parsed.success)
    return parsed.error.issues.map((issue) => `${issue.message} at ${issue.path.map(String).join('.')}`).join('; ');
  // The SDK's resources/read reads the uri with new URL(), which throws on anything else.
  if (request.method === 'resources/read' && !URL.canParse(String(request.params?.uri)))
    return 'expected a URI like sound://{id} at params.uri';
  return null;
}
