import type { FastifyReply } from 'fastify';
import type { Html } from '../html.ts';

/** Pages show account data and one-time keys: never kept by a cache, never shown from history. */
export function sendPage(reply: FastifyReply, page: Html): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page.text);
}
