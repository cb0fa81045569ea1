import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../quota/quota.ts';
import type { McpServices } from '../services.ts';
import { refuseBatch } from './batch.ts';
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
export async function serveMcpPost(
  request: FastifyRequest,
  reply: FastifyReply,
  services: McpServices,
): Promise<FastifyReply | undefined> {
  const refusal = refuseBatch(request.body);
  if (refusal !== null) return reply.code(400).send(refusal);
  const owner = callerOf(request);
  const response = reply.raw;
  // Hijacked replies skip Fastify's hooks; these headers are set here and kept by the transport.
  // The answer is written once every request of the body has its decision, so the headers show
  // the last one.
  const quota = new RequestQuota(services, owner, (decision) => {
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.setHeader(name, value);
  });
  const server = buildMcpServer({ services, owner, quota, log: request.log });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });

  reply.hijack();
  response.setHeader('x-request-id', request.id);
  response.on('close', () => {
    server.close().catch((error: unknown) => request.log.warn({ err: error }, 'closing an MCP server failed'));
  });
  try {
    await server.connect(transport);
    refuseInvalidParams(transport, request.log);
    quota.meter(transport, request.log);
    await transport.handleRequest(request.raw, response, request.body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP request failed');
    if (!response.headersSent) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(jsonRpcError(INTERNAL_ERROR, 'Internal server error')));
    }
  }
}
