import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * JSON-RPC error bodies for failures that happen before the MCP transport sees a message. A
 * client of /mcp reads JSON-RPC, so body problems are answered in its terms, as the transport
 * itself would (same status, error code, `id: null`). `id` names the one request refused, when
 * there is one.
 */
export function jsonRpcError(code: number, message: string, id: RequestId | null = null) {
  return { jsonrpc: '2.0' as const, error: { code, message }, id };
}

export type JsonRpcError = ReturnType<typeof jsonRpcError>;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const SERVER_ERROR = -32000;
export const INTERNAL_ERROR = -32603;

/** Route error handler for POST /mcp: Fastify's body errors become JSON-RPC; the rest go on up. */
export function answerBodyErrorsInJsonRpc(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (!error.code?.startsWith('FST_ERR_CTP_') || status >= 500) throw error;
  const invalidJson = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
  return reply
    .code(status)
    .send(
      jsonRpcError(invalidJson ? PARSE_ERROR : SERVER_ERROR, `${invalidJson ? 'Parse error: ' : ''}${error.message}`),
    );
}

/**
 * A resource read over the daily quota (tool calls answer with an error result instead). In the
 * range JSON-RPC leaves to servers; `data` carries the REST 429's `limit` and `reset`.
 */
export const QUOTA_EXCEEDED = -32029;
