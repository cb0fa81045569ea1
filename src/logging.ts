import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';

/**
 * The server's log lines, written to standard error in the background by pino's own destination
 * (sonic-boom): lines logged while a write is under way are held and written together. On exit
 * pino writes what is held synchronously. If standard error stops draining, lines past `maxBytes`
 * are dropped rather than held in memory.
 *
 * A batcher of our own in front (one string per event-loop turn) cost less CPU per line
 * (bench/log-lines.ts), but too little of a core at the search rate to be worth keeping code for.
 */
export function backgroundLogStream(maxBytes = 8 * 1024 * 1024) {
  return pino.destination({ dest: 2, sync: false, maxLength: maxBytes });
}

/**
 * One log line per request, when it completes, instead of Fastify's two. The path is logged
 * without its query: signed media URLs carry their signature there.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const queryAt = request.url.indexOf('?');
    const line = {
      method: request.method,
      path: queryAt === -1 ? request.url : request.url.slice(0, queryAt),
      status: reply.statusCode,
      // The client's address: the socket's, or X-Forwarded-For's as TRUST_PROXY allows.
      ip: request.ip,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}
