/**
 * What one client of the soak benchmark (bench/soak.ts) does, request after request: searches,
 * details, downloads and streams with their signed URLs fetched (whole or by Range), MCP tool
 * calls in sessions it opens with `initialize`, dashboard pages with a signed-in cookie, and a
 * few requests that are refused on purpose (404, 400, 403). Every request is timed and judged
 * against the status it should get; anything else is reported as an error of its kind.
 */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { Generator } from './query-mix.ts';
import { SOURCES } from '../packages/catalog-index/bench/vocabulary.ts';

/** A request that took longer than this is given up and counted as a timeout. */
const TIMEOUT_MS = 10_000;
/** A client's MCP session makes this many tool calls, then starts a new session. */
const CALLS_PER_MCP_SESSION = 8;

export interface Sample {
  kind: string;
  /** The request's time; null for a fault found in the body of a request already recorded. */
  ms: number | null;
  /** Null when the request got what it should; otherwise what went wrong, e.g. `details 500`, `media timeout`. */
  error: string | null;
}

/** What every client shares: the server, the catalog's ids, the keys and the signed-in dashboard cookie. */
export interface Setup {
  url: string;
  keys: string[];
  /** Every sound, most requested first when picked with `zipf`. */
  ids: string[];
  /** The sounds with real audio files (seeded), whose signed URLs serve an MP3. */
  audioIds: string[];
  searches: string[];
  dashboardCookie: string;
  record: (sample: Sample) => void;
}

type Action = (client: Client) => Promise<void>;

/** The mix, by weight: mostly API reads, then MCP, the dashboard and the media they lead to. */
const ACTIONS: [number, Action][] = [
  [38, (c) => c.search()],
  [14, (c) => c.details()],
  [8, (c) => c.download()],
  [8, (c) => c.stream()],
  [3, (c) => c.similar()],
  [2, (c) => c.popularAndSamples()],
  [14, (c) => c.mcpCall()],
  [11, (c) => c.dashboardPage()],
  [2, (c) => c.refusedOnPurpose()],
];
const TOTAL_WEIGHT = ACTIONS.reduce((sum, [weight]) => sum + weight, 0);

export class Client {
  private sent = 0;
  private mcpCalls = CALLS_PER_MCP_SESSION;
  private mcpSession: string | null = null;

  constructor(
    private readonly setup: Setup,
    private readonly random: Generator,
  ) {}

  /** Sends requests one after another until `until` (a performance.now() time). */
  async run(until: number): Promise<void> {
    while (performance.now() < until) {
      let roll = this.random.next() * TOTAL_WEIGHT;
      const [, action] = ACTIONS.find(([weight]) => (roll -= weight) < 0) ?? ACTIONS[0]!;
      await action(this);
    }
  }

  async search(): Promise<void> {
    await this.api('search', this.random.zipf(this.setup.searches));
  }

  async details(): Promise<void> {
    await this.api('details', `/api/v1/sounds/${this.random.zipf(this.setup.ids)}`);
  }

  /** The download endpoint (counts a download), then the whole file from its signed URL. */
  async download(): Promise<void> {
    const body = await this.api('download', `/api/v1/sounds/${this.random.pick(this.setup.audioIds)}/download`);
    const url = (body as { data?: { download_url?: string } } | null)?.data?.download_url;
    if (url) await this.media('media', url, {});
  }

  /** The stream endpoint, then part of the file the way players ask for it (Range). */
  async stream(): Promise<void> {
    const body = await this.api('stream', `/api/v1/sounds/${this.random.pick(this.setup.audioIds)}/stream`);
    const url = (body as { data?: { stream_url?: string } } | null)?.data?.stream_url;
    // What players send: from the start, a first chunk, a seek, and the last 128 bytes (an ID3v1 tag).
    if (url)
      await this.media('media range', url, {
        range: this.random.pick(['bytes=0-', 'bytes=0-16383', 'bytes=1024-8191', 'bytes=-128']),
      });
  }

  async similar(): Promise<void> {
    await this.api(
      'similar',
      `/api/v1/sounds/${this.random.zipf(this.setup.ids)}/similar?limit=${this.random.pick([5, 10, 20])}`,
    );
  }

  async popularAndSamples(): Promise<void> {
    if (this.random.next() < 0.5)
      await this.api('popular', `/api/v1/sounds/popular?limit=${this.random.pick([10, 30, 100])}`);
    else await this.timed('samples', `${this.setup.url}/api/v1/sounds/sample`, {}, 200);
  }

  /** One tools/call; a client opens a session (initialize, then the initialized notification) every few calls. */
  async mcpCall(): Promise<void> {
    if (this.mcpCalls >= CALLS_PER_MCP_SESSION && !(await this.openMcpSession())) return;
    this.mcpCalls += 1;
    const { ids, audioIds } = this.setup;
    const [name, args] = this.random.pick<[string, Record<string, unknown>]>([
      ['search_sounds', { q: this.random.zipf(SOURCES), limit: this.random.pick([5, 10, 20]) }],
      ['search_sounds', { q: `${this.random.zipf(SOURCES)} ${this.random.zipf(SOURCES)}`, sort: 'relevance' }],
      ['get_sound', { id: this.random.zipf(ids) }],
      ['get_stream_url', { id: this.random.pick(audioIds) }],
      ['get_download_url', { id: this.random.pick(audioIds) }],
      ['find_similar_sounds', { id: this.random.zipf(ids) }],
    ]);
    const answer = await this.mcp(
      'mcp tools/call',
      { jsonrpc: '2.0', id: this.mcpCalls, method: 'tools/call', params: { name, arguments: args } },
      200,
    );
    if ((answer as { result?: { isError?: boolean } } | null)?.result?.isError)
      this.fault('mcp tools/call', `${name} isError`);
  }

  async dashboardPage(): Promise<void> {
    const path = this.random.pick([
      '/',
      '/dashboard',
      '/dashboard/keys',
      '/dashboard/upgrade',
      `/dashboard/catalog?q=${this.random.zipf(SOURCES)}`,
      `/dashboard/catalog?q=${this.random.zipf(SOURCES)}&sort=duration&order=asc&page=2`,
      `/dashboard/catalog/similar/${this.random.zipf(this.setup.ids)}`,
    ]);
    await this.timed('dashboard', this.setup.url + path, { cookie: this.setup.dashboardCookie }, 200);
  }

  /** Requests the server must refuse: they are not errors when refused with the right status. */
  async refusedOnPurpose(): Promise<void> {
    const roll = this.random.next();
    if (roll < 0.4)
      await this.timed('refused', `${this.setup.url}/api/v1/sounds/no-such-sound-${this.sent}`, this.keyHeader(), 404);
    else if (roll < 0.8)
      await this.timed('refused', `${this.setup.url}/api/v1/sounds?limit=1000&q=rain`, this.keyHeader(), 400);
    else await this.timed('refused', `${this.setup.url}/api/v1/sounds?q=rain`, {}, 401);
  }

  private async openMcpSession(): Promise<boolean> {
    this.mcpSession = null;
    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'soak', version: '1.0.0' },
      },
    };
    if (!(await this.mcp('mcp initialize', initialize, 200))) return false;
    await this.mcp('mcp initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }, 202);
    this.mcpCalls = 0;
    return true;
  }

  /** A JSON-RPC message over POST /mcp; the parsed answer, or null when it failed (already reported). */
  private async mcp(kind: string, message: object, status: number): Promise<unknown> {
    const headers: Record<string, string> = {
      ...this.keyHeader(),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      ...(this.mcpSession ? { 'mcp-session-id': this.mcpSession } : {}),
    };
    const answer = await this.timed(kind, `${this.setup.url}/mcp`, headers, status, 'POST', JSON.stringify(message));
    if (!answer) return null;
    this.mcpSession = answer.headers.get('mcp-session-id') ?? this.mcpSession;
    if (status !== 200) return {};
    const parsed = this.json(kind, answer.body) as { error?: { message: string } } | null;
    if (parsed?.error) return (this.fault(kind, `JSON-RPC error ${parsed.error.message}`), null);
    return parsed;
  }

  /** An API request with the next key; its JSON body, or null when it failed (already reported). */
  private async api(kind: string, path: string): Promise<unknown> {
    const answer = await this.timed(kind, this.setup.url + path, this.keyHeader(), 200);
    return answer ? this.json(kind, answer.body) : null;
  }

  /** The body as JSON; a body that is not JSON is a fault of its request. */
  private json(kind: string, body: Buffer): unknown {
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      return (this.fault(kind, 'body is not JSON'), null);
    }
  }

  /** A signed media URL, no key: 200 whole or 206 for a Range, and exactly as many bytes as announced. */
  private async media(kind: string, url: string, headers: Record<string, string>): Promise<void> {
    const answer = await this.timed(kind, url, headers, headers.range ? 206 : 200);
    if (!answer) return;
    const announced = Number(answer.headers.get('content-length'));
    if (answer.body.length !== announced || answer.body.length === 0)
      this.fault(kind, `body ${answer.body.length} of ${announced} bytes`);
  }

  private keyHeader(): Record<string, string> {
    return { 'x-api-key': this.setup.keys[this.sent++ % this.setup.keys.length]! };
  }

  /** Sends one request and reads its whole body; reports it, and returns it when its status was `status`. */
  private async timed(
    kind: string,
    url: string,
    headers: Record<string, string>,
    status: number,
    method = 'GET',
    body?: string,
  ): Promise<{ headers: Headers; body: Buffer } | null> {
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const content = Buffer.from(await response.arrayBuffer());
      const ms = performance.now() - started;
      if (response.status !== status) return (this.report(kind, ms, `${kind} ${response.status}`), null);
      this.report(kind, ms, null);
      return { headers: response.headers, body: content };
    } catch (error) {
      this.report(kind, performance.now() - started, `${kind} ${failureOf(error)}`);
      return null;
    }
  }

  private report(kind: string, ms: number, error: string | null): void {
    this.setup.record({ kind, ms, error });
  }

  /** A body found wrong after its request was recorded: an error, not a second request. */
  private fault(kind: string, problem: string): void {
    this.setup.record({ kind, ms: null, error: `${kind} ${problem}` });
  }
}

/** `timeout`, or the socket error's code (ECONNRESET, ECONNREFUSED...) that fetch wraps in its cause. */
function failureOf(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `socket ${cause?.code ?? cause?.message ?? String(error)}`;
}
