import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../shapes/answers.ts';
import type { McpServices } from '../services.ts';
import { callerOf } from './caller.ts';
import { INTERNAL_ERROR, jsonRpcError } from './json-rpc.ts';
import { buildMcpServer } from './server.ts';
import { RequestQuota } from './request-quota.ts';
import { refuseInvalidParams } from './request-params.ts';

/**
 * Answers one POST /mcp, statelessly: a fresh server and transport per request (the SDK refuses
 * to reuse a stateless transport), handed the raw Node request and response and the body
 * Fastify already parsed. Responses are plain JSON rather than an SSE stream: no tool sends
 * progress, and plain JSON is what curl and simple clients read most easily.
 */
export async function serveMcpPost(request: FastifyRequest, reply: FastifyReply, services: McpServices): Promise<void> {
  const owner = callerOf(request);
  const quota = await RequestQuota.count(request.body, owner, services);
  const server = buildMcpServer({ services, owner, quota, log: request.log });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });

  reply.hijack();
  const response = reply.raw;
  // Hijacked replies skip Fastify's hooks; these headers are set here and kept by the transport.
  response.setHeader('x-request-id', request.id);
  if (quota.latest) {
    for (const [name, value] of Object.entries(rateLimitHeaders(quota.latest))) response.setHeader(name, value);
  }
  response.on('close', () => {
    server.close().catch((error: unknown) => request.log.warn({ err: error }, 'closing an MCP server failed'));
  });
  try {
    await server.connect(transport);
    refuseInvalidParams(transport, request.log);
    await transport.handleRequest(request.raw, response, request.body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP request failed');
    if (!response.headersSent) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(jsonRpcError(INTERNAL_ERROR, 'Internal server error')));
    }
  }
}
