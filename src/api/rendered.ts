import type { FastifyReply } from 'fastify';

/**
 * List answers rendered once a second. Within one second, a list answer is the same bytes for
 * every caller: its sounds come from the same cached page, and signed URLs change only with the
 * second (nothing in a list body depends on who asks; the quota headers are set apart from it).
 * So the body is serialized once, by the route's own serializer (from its zod 200 schema), and
 * sent as it is until the second changes. The rendering is keyed by the cached page object: a
 * catalog write replaces the page, and with it the rendering.
 */
type Serialized = ReturnType<FastifyReply['serialize']>;

export class RenderedLists {
  private readonly bodies = new WeakMap<object, { second: number; json: Serialized }>();

  send(reply: FastifyReply, page: object, now: number, body: () => unknown): Serialized {
    const second = Math.floor(now / 1000);
    let rendered = this.bodies.get(page);
    if (rendered === undefined || rendered.second !== second) {
      rendered = { second, json: reply.serialize(body()) };
      this.bodies.set(page, rendered);
    }
    reply.type('application/json; charset=utf-8');
    return rendered.json;
  }
}
