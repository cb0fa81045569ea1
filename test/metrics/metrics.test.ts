import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PLANS } from '../../src/accounts/plans.ts';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { contentHashOf } from '../../src/catalog/writer.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import type { Services } from '../../src/services.ts';
import { createServices } from '../../src/wiring.ts';
import { configFor, onPostgres, removeBackend } from '../helpers/backend.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { startServe, type ServeProcess } from '../helpers/process.ts';
import { addSound } from '../helpers/sounds.ts';
import { listeningPorts, Scrape } from './scrape.ts';

const onRedis = Boolean(process.env.REDIS_URL);
const portOf = (url: string) => Number(new URL(url).port);

/** The same data folder's services in this process: another program writing to the catalog while `serve` runs. */
async function withServices<T>(dataDir: string, work: (services: Services) => Promise<T>): Promise<T> {
  const services = await createServices(await configFor(dataDir));
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}

/** Issue 29: Prometheus text at /metrics on METRICS_PORT, from the real `serve` (dist/: build first). */
describe('metrics: serve with METRICS_PORT', () => {
  let dataDir: string;
  let server: ServeProcess;
  let metricsUrl: string;
  let key: string;
  let spentKey: string;
  let renderable: string;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-metrics-'));
    ({ key, spentKey, renderable } = await withServices(dataDir, async (services) => {
      await addSound(services, { name: 'Laser Zap', tags: ['laser'] });
      await addSound(services, { name: 'Door Knock', tags: ['door'] });
      // A real MP3, which a rendition can be made of.
      const synthesized = synthesizeSound('similar', 14);
      const { mp3, measurements } = await encodeAndMeasure(synthesized.audio);
      const { id } = await services.catalogWriter.put({
        contentHash: contentHashOf(mp3),
        mp3,
        measurements,
        metadata: {
          name: 'Synth Tone',
          description: null,
          tags: ['tone'],
          category: 'SFX',
          license: 'CC0',
          sample: false,
        },
      });
      const pro = await services.accounts.createAccount('metrics-pro@example.com', 'pro');
      const spent = await services.accounts.createAccount('metrics-spent@example.com', 'pro');
      // The second account's whole day spent through the real counter: its next request is refused.
      const limit = PLANS.pro.dailyQuota;
      assert.equal((await services.quota.consume(spent.id, null, limit, Date.now(), limit)).allowed, true);
      return {
        key: (await services.accounts.createKey(pro.id, 'metrics')).key,
        spentKey: (await services.accounts.createKey(spent.id, 'metrics')).key,
        renderable: id,
      };
    }));
    server = await startServe({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', METRICS_PORT: '0' });
    const announced = /Metrics\s+(http:\/\/\S+\/metrics)/.exec(server.stderr());
    assert.ok(announced, `the banner names the metrics address:\n${server.stderr()}`);
    metricsUrl = announced[1]!;
  });
  after(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir);
  });

  test(
    'metrics.requests: answers are counted by route pattern ' + 'and status, never by URL; quota decisions by outcome',
    async () => {
      const requests = (scrape: Scrape, route: string, status: number) =>
        scrape.value('http_request_duration_seconds_count', { method: 'GET', route, status_code: String(status) }) ?? 0;
      const decisions = (scrape: Scrape, decision: string) => scrape.value('quota_decisions_total', { decision }) ?? 0;
      const before = await Scrape.of(metricsUrl);

      const search = await fetch(`${server.url}/api/v1/sounds?q=laser`, { headers: { 'x-api-key': key } });
      assert.equal(search.status, 200);
      const missing = await fetch(`${server.url}/api/v1/sounds/no-such-sound-4242`, { headers: { 'x-api-key': key } });
      assert.equal(missing.status, 404);
      const refused = await fetch(`${server.url}/api/v1/sounds?q=door`, { headers: { 'x-api-key': spentKey } });
      assert.equal(refused.status, 429);
      const unrouted = await fetch(`${server.url}/no/such/page-4242`);
      assert.equal(unrouted.status, 404);

      const after = await Scrape.of(metricsUrl);
      assert.equal(requests(after, '/api/v1/sounds', 200) - requests(before, '/api/v1/sounds', 200), 1, 'the search');
      assert.equal(
        requests(after, '/api/v1/sounds/:id', 404) - requests(before, '/api/v1/sounds/:id', 404),
        1,
        'the unknown sound',
      );
      assert.equal(
        requests(after, '/api/v1/sounds', 429) - requests(before, '/api/v1/sounds', 429),
        1,
        'the refused search',
      );
      assert.equal(
        requests(after, 'unmatched', 404) - requests(before, 'unmatched', 404),
        1,
        'the path no route matches',
      );
      for (const { route } of after.labelsOf('http_request_duration_seconds_count')) {
        assert.ok(!route!.includes('4242') && !route!.includes('?'), `route label "${route}" is a pattern, not a URL`);
      }
      // Both answers with a known key spent one request of the quota; the spent account's was refused.
      assert.equal(decisions(after, 'allowed') - decisions(before, 'allowed'), 2);
      assert.equal(decisions(after, 'refused') - decisions(before, 'refused'), 1);
      // The histogram's buckets hold every answer: the largest bucket equals the count.
      assert.equal(
        after.value('http_request_duration_seconds_bucket', {
          route: '/api/v1/sounds',
          status_code: '200',
          le: '+Inf',
        }),
        requests(after, '/api/v1/sounds', 200),
      );
    },
  );

  test('metrics.process: Node.js and process metrics from prom-client', async () => {
    const scrape = await Scrape.of(metricsUrl);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      assert.ok(scrape.has(name), name);
    }
  });

  test(
    "metrics.index: the index size is the catalog's " + 'sound count and follows a sound another program adds',
    async () => {
      const total = async () =>
        (await (await fetch(`${server.url}/api/v1/sounds`, { headers: { 'x-api-key': key } })).json()).pagination
          .total as number;
      const scrape = await Scrape.of(metricsUrl);
      assert.equal(scrape.value('search_index_sounds'), 3);
      assert.equal(scrape.value('search_index_sounds'), await total());
      await withServices(dataDir, (services) => addSound(services, { name: 'Glass Break' }));
      // Applied, and then nothing waiting: the lag goes to 0 when the read after the change finds the
      // feed current, a moment after the count has moved (a scrape can fall between the two).
      const seen = await eventually(
        () => Scrape.of(metricsUrl),
        (s) => s.value('search_index_sounds') === 4 && s.value('catalog_change_feed_lag_seconds') === 0,
        10_000,
        'the added sound is in the index and nothing waits',
      );
      assert.equal(seen.value('search_index_sounds'), await total());
    },
  );

  test('metrics.renditions: a rendition made is counted with its bytes', async () => {
    const before = await Scrape.of(metricsUrl);
    const response = await fetch(`${server.url}/api/v1/sounds/${renderable}/stream?loudness=-16`, {
      headers: { 'x-api-key': key },
    });
    assert.equal(response.status, 200);
    const media = await fetch((await response.json()).data.stream_url);
    assert.equal(media.status, 200);
    await media.arrayBuffer();
    const after = await Scrape.of(metricsUrl);
    assert.equal(after.value('renditions_made_total')! - before.value('renditions_made_total')!, 1);
    assert.ok(
      after.value('renditions_stored_bytes')! > before.value('renditions_stored_bytes')!,
      'the stored bytes grew',
    );
    assert.equal(after.value('renditions_making'), 0);
    assert.equal(after.value('renditions_waiting'), 0);
    assert.equal(after.value('renditions_removed_total'), 0);
  });

  test(
    'metrics.backends: the PostgreSQL pool and Redis errors ' +
      'where those backends are used, nothing for what is not',
    async () => {
      const scrape = await Scrape.of(metricsUrl);
      if (onPostgres) {
        assert.equal(scrape.value('database_pool_connections', { state: 'max' }), 10);
        const open =
          scrape.value('database_pool_connections', { state: 'idle' })! +
          scrape.value('database_pool_connections', { state: 'busy' })!;
        assert.ok(open >= 1 && open <= 10, `open connections: ${open}`);
        assert.equal(scrape.value('database_pool_waiting_queries'), 0);
        assert.equal(scrape.value('database_pool_errors_total'), 0);
      } else {
        assert.ok(!scrape.text.includes('database_pool_'), 'SQLite has no pool');
      }
      if (onRedis) assert.equal(scrape.value('redis_errors_total'), 0);
      else assert.ok(!scrape.has('redis_errors_total'), 'no Redis, no Redis errors');
      assert.equal(scrape.value('quota_errors_total'), 0);
    },
  );

  test("metrics.private: /metrics is served on its own port at 127.0.0.1, and never on the API's", async () => {
    assert.equal(new URL(metricsUrl).hostname, '127.0.0.1');
    assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
    assert.equal((await fetch(new URL('/api/v1/sounds', metricsUrl))).status, 404);
    assert.deepEqual(
      await listeningPorts(server.child.pid!),
      [portOf(server.url), portOf(metricsUrl)].sort((a, b) => a - b),
    );
  });
});

describe('metrics: off by default, and its settings', () => {
  test(
    'metrics.off: without METRICS_PORT, serve listens ' + "on the API's port alone and says nothing of metrics",
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-metrics-'));
      const server = await startServe({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' });
      try {
        assert.deepEqual(await listeningPorts(server.child.pid!), [portOf(server.url)]);
        assert.doesNotMatch(server.stderr(), /metrics/i);
        assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
      } finally {
        assert.equal(await server.stop(), 0);
        await rm(dataDir, { recursive: true, force: true });
        await removeBackend(dataDir);
      }
    },
  );

  test('metrics.shutdown: SIGTERM closes the metrics listener with the server (exit status 0)', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sound-catalog-metrics-'));
    const server = await startServe({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', METRICS_PORT: '0' });
    const metricsUrl = /Metrics\s+(http:\/\/\S+\/metrics)/.exec(server.stderr())![1]!;
    assert.equal((await fetch(metricsUrl)).status, 200);
    assert.equal(await server.stop(), 0);
    await assert.rejects(fetch(metricsUrl), 'nothing answers on the metrics port any more');
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir);
  });

  test("metrics.config: a bad METRICS_PORT, or the API's own, stops the start with a one-line reason", async () => {
    for (const [env, reason] of [
      [{ METRICS_PORT: 'nine' }, /invalid setting METRICS_PORT: must be a port number/],
      [{ METRICS_PORT: '70000' }, /invalid setting METRICS_PORT: must be a port number/],
      [{ PORT: '4555', METRICS_PORT: '4555' }, /invalid setting METRICS_PORT: must differ from PORT/],
    ] as const) {
      const result = await runCli(['serve'], { SOUND_CATALOG_DATA: '/tmp/unused', ...env });
      assert.equal(result.status, 1, result.stderr);
      assert.match(result.stderr, reason);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    }
  });
});
