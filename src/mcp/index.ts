import type { FastifyInstance } from 'fastify';
import type { McpServices } from '../services.ts';
import { authenticateMcpCaller } from './caller.ts';
import { answerBodyErrorsInJsonRpc, jsonRpcError, SERVER_ERROR } from './json-rpc.ts';

export const MCP_PATH = '/mcp';

/**
 * Mounts the MCP server (Streamable HTTP, stateless) at /mcp. Every method is authenticated
 * first, with the REST 401/403 answers. POST carries the JSON-RPC messages. GET (a stream for
 * server-initiated messages) and DELETE (ending a session) have nothing to offer without
 * sessions, so they answer 405 as the transport specification allows; clients expect that.
 *
 * The MCP SDK (and the JSON Schema validator it brings) is loaded on the first POST: a server
 * whose callers never use MCP does not hold it in memory.
 */
export function registerMcp(app: FastifyInstance, services: McpServices): void {
  const onRequest = (request: Parameters<typeof authenticateMcpCaller>[0]) => authenticateMcpCaller(request, services);
  app.route({
    method: 'POST',
    url: MCP_PATH,
    onRequest,
    errorHandler: answerBodyErrorsInJsonRpc,
    handler: async (request, reply) => (await import('./streamable-http.ts')).serveMcpPost(request, reply, services),
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    onRequest,
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header('allow', 'POST')
        .send(
          jsonRpcError(
            SERVER_ERROR,
            'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.',
          ),
        ),
  });
}
