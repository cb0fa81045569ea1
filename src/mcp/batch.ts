import { isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { INVALID_REQUEST, jsonRpcError, type JsonRpcError } from './json-rpc.ts';

/**
 * Messages in one JSON-RPC batch to /mcp. Each request of a batch is one more handler at once on
 * one HTTP request; twenty covers what a client sends together (a few calls, their lists). The
 * SDK's own transport stops at a hundred.
 */
export const MAX_BATCH_MESSAGES = 20;

/**
 * Why a POST /mcp body must not reach the transport, as the JSON-RPC answer to send with HTTP 400
 * (the status the SDK's transport gives its own Invalid Request answers), or null when it may go
 * on. A refused batch is refused whole, before anything in it is counted or run:
 *
 * - An empty batch gets one error with `id: null`, as JSON-RPC prescribes for it.
 * - A batch past MAX_BATCH_MESSAGES, or one that gives the same id to two requests, gets one
 *   -32600 Invalid Request per request under that request's id, the answer JSON-RPC gives a
 *   batch entry by entry; so a client waiting on any id of it has its answer, and one waiting on a
 *   repeated id has it twice. (The SDK's transport answers its own cap with one error of `id:
 *   null`, which leaves a client matching answers by id with none.) Notifications are not
 *   answered (JSON-RPC never answers one) and do not repeat anything: they have no id. A batch
 *   with no request at all gets one error with `id: null`.
 *
 * Repeated ids are refused because everything after this keys a request by its id: the
 * transport's answer to it, and the quota decision its handler reads (request-quota.ts). Two
 * requests under one id would share one answer and one decision.
 */
export function refuseBatch(body: unknown): JsonRpcError | JsonRpcError[] | null {
  if (!Array.isArray(body)) return null;
  if (body.length === 0) return jsonRpcError(INVALID_REQUEST, 'Invalid Request: an empty batch');
  const requestIds = body.filter(isJSONRPCRequest).map((request) => request.id);
  const nothingRun = 'Nothing in the batch was run or counted.';
  if (body.length > MAX_BATCH_MESSAGES) {
    return refuseEach(
      requestIds,
      `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages, this one ` +
        `${body.length}. ${nothingRun}`,
    );
  }
  const repeated = firstRepeat(requestIds);
  if (repeated !== undefined) {
    return refuseEach(
      requestIds,
      `Invalid Request: the batch gives the id ${JSON.stringify(repeated)} to more ` +
        `than one request; give each request its own id. ${nothingRun}`,
    );
  }
  return null;
}

function refuseEach(requestIds: RequestId[], message: string): JsonRpcError | JsonRpcError[] {
  if (requestIds.length === 0) return jsonRpcError(INVALID_REQUEST, message);
  return requestIds.map((id) => jsonRpcError(INVALID_REQUEST, message, id));
}

/** Ids compared as the transport's and the quota's Maps compare them: 7 and "7" differ. */
function firstRepeat(ids: RequestId[]): RequestId | undefined {
  const seen = new Set<RequestId>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
