import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Account } from '../../src/accounts/store.ts';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { renditionPrice } from '../../src/media/rendition-work.ts';
import type { Payer } from '../../src/metering/meter.ts';
import { renditionChoiceOf } from '../../src/shapes/params.ts';
import { signedIn } from '../dashboard/helpers/accounts.ts';
import { csrfToken, type WebClient } from '../dashboard/helpers/web-client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { postMcp } from '../mcp/mcp-client.ts';

/** What the ledger should hold: requests left today, each sound's downloads, and which sounds' rendition is stored. */
interface Model {
  remaining: number;
  downloads: number[];
  rendered: boolean[];
}

/** The rendition the Rendition step asks for: the catalog's MP3 at another loudness. */
const RENDITION = renditionChoiceOf({ loudness: -20 });

/** One account with two API keys and a dashboard session, and the sounds every run uses. */
interface Real {
  server: TestServer;
  keys: [string, string];
  web: WebClient;
  catalogPage: string;
  payer: Payer;
  sounds: string[];
}

/** Left of the day when a run starts: small, so that every kind of step meets a refusal. */
const LEFT_AT_START = 24;

/** A step of a run: acts through one entry point, then checks the ledger against the model. */
abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }

  async run(model: Model, real: Real): Promise<void> {
    await this.act(model, real);
    const state = await real.server.services.meter.state(real.payer);
    assert.equal(state.remaining, model.remaining, `quota after ${this.toString()}`);
    const counts = await Promise.all(
      real.sounds.map(async (id) => (await real.server.services.catalog.findById(id))!.numDownloads),
    );
    assert.deepEqual(counts, model.downloads, `downloads after ${this.toString()}`);
  }

  abstract act(model: Model, real: Real): Promise<void>;
}

/** A tools/call message; get_quota costs nothing, the others one request each. */
interface McpMessage {
  tool: 'search_sounds' | 'get_download_url' | 'get_quota';
  sound: number;
}
const COSTS: Record<McpMessage['tool'], number> = { search_sounds: 1, get_download_url: 1, get_quota: 0 };

function message(id: number, { tool, sound }: McpMessage, sounds: string[]) {
  const args = tool === 'search_sounds' ? { q: 'bell' } : tool === 'get_download_url' ? { id: sounds[sound] } : {};
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } };
}

/** Applies one message to the model as the meter must: charged when the day covers it, a download counted with it. */
function charge(model: Model, { tool, sound }: McpMessage): boolean {
  const cost = COSTS[tool];
  if (cost > model.remaining) return false;
  model.remaining -= cost;
  if (tool === 'get_download_url') model.downloads[sound]! += 1;
  return true;
}

class RestSearch extends Step {
  constructor(readonly key: 0 | 1) {
    super();
  }
  async act(model: Model, real: Real) {
    const response = await real.server.get('/api/v1/sounds?q=bell', { key: real.keys[this.key] });
    await response.arrayBuffer();
    const allowed = model.remaining >= 1;
    assert.equal(response.status, allowed ? 200 : 429);
    if (allowed) model.remaining -= 1;
  }
  override toString(): string {
    return `rest search (key ${this.key})`;
  }
}

class RestDownload extends Step {
  constructor(
    readonly key: 0 | 1,
    readonly sound: number,
  ) {
    super();
  }
  async act(model: Model, real: Real) {
    const response = await real.server.get(`/api/v1/sounds/${real.sounds[this.sound]}/download`, {
      key: real.keys[this.key],
    });
    await response.arrayBuffer();
    const allowed = model.remaining >= 1;
    assert.equal(response.status, allowed ? 200 : 429);
    if (allowed) {
      model.remaining -= 1;
      model.downloads[this.sound]! += 1;
    }
  }
  override toString(): string {
    return `rest download of ${this.sound} (key ${this.key})`;
  }
}

class McpBatch extends Step {
  constructor(
    readonly key: 0 | 1,
    readonly messages: McpMessage[],
    readonly repeatId: boolean,
  ) {
    super();
  }
  async act(model: Model, real: Real) {
    const ids = this.messages.map((_, n) => (this.repeatId && n === this.messages.length - 1 ? 0 : n));
    const body = this.messages.map((one, n) => message(ids[n]!, one, real.sounds));
    const response = await postMcp(real.server, this.messages.length === 1 ? body[0] : body, {
      'x-api-key': real.keys[this.key],
    });
    const answers = [await response.json()].flat() as Array<{
      id: number;
      result?: { isError?: boolean };
      error?: { code: number };
    }>;
    if (this.repeatId && this.messages.length > 1) {
      // Refused whole: an Invalid Request for each entry, nothing charged or counted.
      assert.deepEqual(
        answers.map((answer) => answer.error?.code),
        this.messages.map(() => -32600),
      );
      return;
    }
    for (const [n, one] of this.messages.entries()) {
      const allowed = charge(model, one);
      const answer = answers.find((candidate) => candidate.id === ids[n])!;
      assert.equal(answer.result?.isError === true, !allowed, `${one.tool}: ${JSON.stringify(answer)}`);
    }
  }
  override toString(): string {
    return (
      `mcp ${this.repeatId ? 'batch with a repeated id' : 'batch'} ` +
      `[${this.messages.map((m) => m.tool).join(', ')}] (key ${this.key})`
    );
  }
}

class DashboardDownload extends Step {
  constructor(readonly sound: number) {
    super();
  }
  async act(model: Model, real: Real) {
    const response = await real.web.post(`/dashboard/download/${real.sounds[this.sound]}`, {
      _csrf: csrfToken(real.catalogPage),
    });
    const allowed = model.remaining >= 1;
    assert.equal(response.status, allowed ? 303 : 429);
    if (allowed) {
      model.remaining -= 1;
      model.downloads[this.sound]! += 1;
    }
  }
  override toString(): string {
    return `dashboard download of ${this.sound}`;
  }
}

class Pack extends Step {
  constructor(
    readonly key: 0 | 1,
    readonly sounds: number[],
  ) {
    super();
  }
  async act(model: Model, real: Real) {
    const ids = this.sounds.map((sound) => real.sounds[sound]).join(',');
    const response = await real.server.get(`/api/v1/packs?ids=${ids}`, { key: real.keys[this.key] });
    await response.arrayBuffer();
    // The call is the first request of the pack's price (one per sound); the rest is paid whole or not at all.
    if (model.remaining < 1) return assert.equal(response.status, 429);
    model.remaining -= 1;
    const rest = this.sounds.length - 1;
    if (rest > model.remaining) return assert.equal(response.status, 429);
    assert.equal(response.status, 200);
    model.remaining -= rest;
    for (const sound of this.sounds) model.downloads[sound]! += 1;
  }
  override toString(): string {
    return `pack of [${this.sounds.join(', ')}] (key ${this.key})`;
  }
}

class Rendition extends Step {
  constructor(readonly sound: number) {
    super();
  }

  async act(model: Model, real: Real) {
    const { services } = real.server;
    const url = services.signer.sign(real.sounds[this.sound]!, 'download', RENDITION, real.payer.accountId).url;
    const response = await fetch(url);
    await response.arrayBuffer();
    // A stored rendition is served free; a new one costs its price, paid whole or refused.
    const stored = await services.catalog.findById(real.sounds[this.sound]!);
    const price = model.rendered[this.sound] ? 0 : renditionPrice(stored!, RENDITION);
    if (price > model.remaining) return assert.equal(response.status, 429);
    assert.equal(response.status, 200);
    model.remaining -= price;
    model.rendered[this.sound] = true;
  }

  override toString(): string {
    return `rendition of ${this.sound} through its signed URL`;
  }
}

/**
 * Every entry point charges the same meter: random sequences of REST searches and downloads, MCP
 * calls and batches (a repeated id among them), dashboard downloads, packs and renditions made
 * through signed URLs, over two keys of one account, leave the day's quota and each sound's downloads exactly where
 * a one-line model says.
 */
describe('meter.model: every path charges the one meter, as a simple model says', () => {
  let server: TestServer;
  let sounds: string[];

  before(async () => {
    server = await startServer();
    sounds = [];
    // Real MP3s, so that their renditions can be made.
    for (const [n, name] of ['Brass Bell', 'Glass Bell', 'Cow Bell'].entries()) {
      const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('model', n).audio);
      sounds.push(
        (await addSound(server.services, { name, tags: ['bell'], bytes: mp3, duration: measurements.duration })).id,
      );
    }
  });
  after(() => server.close());

  /** A fresh account for each run: signed up on the dashboard, on the Pro plan, two keys, most of the day spent. */
  async function setUp(): Promise<Real> {
    const user = await signedIn(server, 'pro');
    const account: Account = user.account;
    const keys = [
      (await server.services.accounts.createKey(account.id, 'first')).key,
      (await server.services.accounts.createKey(account.id, 'second')).key,
    ] as [string, string];
    const payer: Payer = { accountId: account.id, keyId: null, dailyQuota: account.plan.dailyQuota };
    const spent = await server.services.meter.charge(payer, account.plan.dailyQuota - LEFT_AT_START);
    assert.equal(spent.remaining, LEFT_AT_START);
    // A page with the session's form token that spends nothing (a catalog search would).
    const catalogPage = (await user.client.get('/dashboard/keys')).text;
    return { server, keys, web: user.client, catalogPage, payer, sounds };
  }

  test('meter.model: quota and download counts match the model after every step', async () => {
    const key = fc.constantFrom<0 | 1>(0, 1);
    const sound = fc.integer({ min: 0, max: 2 });
    const mcpMessage = fc.record({
      tool: fc.constantFrom<McpMessage['tool']>('search_sounds', 'get_download_url', 'get_quota'),
      sound,
    });
    const steps = [
      key.map((k) => new RestSearch(k)),
      fc.tuple(key, sound).map(([k, s]) => new RestDownload(k, s)),
      fc
        .tuple(key, fc.array(mcpMessage, { minLength: 1, maxLength: 4 }), fc.boolean())
        .map(([k, m, repeat]) => new McpBatch(k, m, repeat)),
      sound.map((s) => new DashboardDownload(s)),
      sound.map((s) => new Rendition(s)),
      fc.tuple(key, fc.uniqueArray(sound, { minLength: 1, maxLength: 3 })).map(([k, s]) => new Pack(k, s)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(steps, { maxCommands: 18 }), async (commands) => {
        const real = await setUp();
        const downloads = await Promise.all(
          sounds.map(async (id) => (await server.services.catalog.findById(id))!.numDownloads),
        );
        const rendered = await Promise.all(
          sounds.map(async (id) =>
            server.services.renditions.has((await server.services.catalog.findById(id))!, RENDITION),
          ),
        );
        const model: Model = { remaining: LEFT_AT_START, downloads, rendered };
        await fc.asyncModelRun(() => ({ model, real }), commands);
      }),
      { numRuns: 20 },
    );
  });
});
