import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page, Sound } from '../catalog/sound.ts';
import type { Services } from '../services.ts';

/**
 * Answers rendered once a second. Within one second, the answer of a list, or of one sound's
 * details, is the same bytes for every caller: its sounds come from the same cached answer of the
 * catalog (its source), and signed URLs change only with the second (nothing in these bodies
 * depends on who asks; the quota headers are set apart from them). So the body is serialized
 * once, by the route's own serializer (from its zod 200 schema), and sent as it is until the
 * second changes or the source stops being the catalog's answer.
 *
 * An answer sent again is kept as UTF-8 bytes, not text: Node writes bytes to the socket as they
 * are, where text is measured, joined to the headers, copied and encoded again on every response
 * (about 12 KB for a page of 20 sounds). An answer sent once stays text: bytes live outside V8's
 * heap and are freed later than short-lived text, so turning one-off answers into bytes only
 * held more memory.
 *
 * Two ways in: by the source (whatever query string led to it), and by the exact request URL,
 * which lets a repeated request skip validation and the cache lookup too (`recall`, before
 * parsing). Measured (bench/, search at 12,000 sounds): the lookup by URL took the search rate
 * from about 23,700 to 29,000 requests a second.
 */
interface Rendered<S> {
  source: S;
  second: number;
  json: string | Buffer;
}

/** Bytes (characters, for text) held by URL within one second at most; past it, answers are still
 * found by source. */
const URL_BUDGET_BYTES = 8 * 1024 * 1024;
/** URLs noted within one second at most. */
const URL_BUDGET_ENTRIES = 50_000;

export class RenderedAnswers<S extends object> {
  private readonly bySource = new WeakMap<S, Rendered<S>>();
  /**
   * This second's answers by request URL, from a URL's second request in the second (the map
   * starts empty each second): text kept for URLs asked once would only make garbage to collect.
   */
  private byUrl = new Map<string, Rendered<S> | null>();
  private urlSecond = -1;
  private urlBytes = 0;

  /** `isCurrent` tells whether a source is still the catalog's answer to what it was loaded for. */
  constructor(private readonly isCurrent: (services: Services, source: S) => Promise<boolean>) {}

  /** The bytes already sent this second for this exact URL, if their source is still the catalog's. */
  async recall(request: FastifyRequest, services: Services): Promise<string | Buffer | undefined> {
    const rendered = this.byUrl.get(request.url);
    if (!rendered || rendered.second !== Math.floor(services.clock() / 1000)) return undefined;
    return (await this.isCurrent(services, rendered.source)) ? rendered.json : undefined;
  }

  send(request: FastifyRequest, reply: FastifyReply, source: S, now: number, body: () => unknown): string | Buffer {
    const second = Math.floor(now / 1000);
    let rendered = this.bySource.get(source);
    if (rendered === undefined || rendered.second !== second) {
      rendered = { source, second, json: reply.serialize(body()) as string };
      this.bySource.set(source, rendered);
    } else if (typeof rendered.json === 'string') {
      rendered.json = Buffer.from(rendered.json);
    }
    this.rememberUrl(request.url, rendered);
    reply.type('application/json; charset=utf-8');
    return rendered.json;
  }

  private rememberUrl(url: string, rendered: Rendered<S>): void {
    if (rendered.second !== this.urlSecond) {
      this.byUrl = new Map();
      this.urlSecond = rendered.second;
      this.urlBytes = 0;
    }
    const known = this.byUrl.get(url);
    if (known === undefined) {
      if (this.byUrl.size < URL_BUDGET_ENTRIES) this.byUrl.set(url, null);
      return;
    }
    if (known !== null || this.urlBytes + rendered.json.length > URL_BUDGET_BYTES) return;
    this.byUrl.set(url, rendered);
    this.urlBytes += rendered.json.length;
  }
}

/** For list endpoints: their source is a page of the catalog's list cache. */
export function renderedLists(): RenderedAnswers<Page<Sound>> {
  return new RenderedAnswers<Page<Sound>>((services, page) => services.catalog.isCurrent(page));
}
