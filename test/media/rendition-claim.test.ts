import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renditionChoice, renditionKey } from '../../src/media/renditions.ts';
import { contentHashOf } from '../../src/catalog/writer.ts';
import { createServices } from '../../src/wiring.ts';
import { configFor, onS3, otherConnection, removeBackend } from '../helpers/backend.ts';
import { eventually } from '../helpers/eventually.ts';
import { withoutId3 } from '../helpers/id3.ts';
import { startServe, type ServeProcess } from '../helpers/process.ts';
import { addRealSound, tone } from '../mcp/real-sounds.ts';
import { Scrape } from '../metrics/scrape.ts';

/** With Redis the instances count one quota between them; without it, each counts its own. */
const sharedQuota = Boolean(process.env.REDIS_URL);

interface Instance {
  serve: ServeProcess;
  metricsUrl: string;
}

/**
 * Issue 29: a new rendition is made once, by whichever instance first serves it. Two `serve`
 * processes on one backend (one SQLite file and data folder by default; PostgreSQL and Redis with
 * DATABASE_URL and REDIS_URL; a bucket with TEST_MEDIA=s3) are asked for it at the same moment.
 */
describe(`renditions.claim: two instances asked for one new rendition at once${onS3 ? ' (S3)' : ''}`, () => {
  let dataDir: string;
  let instances: [Instance, Instance];
  let key: string;
  const sounds: Array<{ id: string; contentHash: string }> = [];

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-rendition-claim-'));
    // Set up by a third instance in this process, closed before the two start.
    const services = await createServices(await configFor(dataDir));
    try {
      const account = await services.accounts.createAccount(`claim-${Date.now()}@example.com`, 'pro');
      ({ key } = await services.accounts.createKey(account.id, 'claim'));
      for (const frequency of [220, 330, 440, 550]) {
        const { id, mp3 } = await addRealSound(services, tone(2, 0.1, frequency), `Claim Tone ${frequency}`);
        sounds.push({ id, contentHash: contentHashOf(mp3) });
      }
    } finally {
      await services.close();
    }
    const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0', METRICS_PORT: '0' };
    const started = await Promise.all([startServe(env), startServe(env)]);
    instances = (await Promise.all(
      started.map(async (serve) => {
        const announced = await eventually(
          async () => /Metrics\s+(http:\/\/\S+\/metrics)/.exec(serve.stderr()),
          Boolean,
          5000,
          'the metrics address',
        );
        return { serve, metricsUrl: announced![1]! };
      }),
    )) as [Instance, Instance];
  });

  after(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.serve.stop()));
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir);
  });

  const made = async (instance: Instance) => (await Scrape.of(instance.metricsUrl)).value('renditions_made_total') ?? 0;
  const madeByBoth = async () => (await made(instances[0])) + (await made(instances[1]));
  /** What the account has left today, as one instance's headers say after one more request. */
  const remaining = async (instance: Instance) => {
    const response = await fetch(`${instance.serve.url}/api/v1/sounds?limit=1`, { headers: { 'x-api-key': key } });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    return Number(response.headers.get('x-ratelimit-remaining'));
  };
  /** What each counter has left: the one both share, or each instance's own. */
  const readQuota = async () =>
    sharedQuota ? [await remaining(instances[0])] : [await remaining(instances[0]), await remaining(instances[1])];
  /** The quota counted between two readings, less the later reading's own request on each counter. */
  const spent = (before: number[], after: number[]) => before.reduce((sum, start, n) => sum + start - after[n]! - 1, 0);
  /** A signed stream URL from the first instance. */
  const signed = async (id: string, query: string) => {
    const response = await fetch(`${instances[0].serve.url}/api/v1/sounds/${id}/stream${query}`, {
      headers: { 'x-api-key': key },
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: { stream_url: string } }).data.stream_url;
  };
  const on = (instance: Instance, url: string) => {
    const moved = new URL(url);
    moved.host = new URL(instance.serve.url).host;
    return moved.href;
  };
  const play = async (instance: Instance, url: string) => {
    const response = await fetch(on(instance, url));
    return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  test(
    'renditions.claim.once: asked of both at the same moment, each of three new renditions is ' +
      'made once, both answer 200 with the same bytes, and the quota is charged once per rendition',
    async () => {
      const urls = await Promise.all(
        sounds.slice(0, 3).map((sound, n) => signed(sound.id, `?loudness=${-14 - n}&trim=true`)),
      );
      const madeBefore = await madeByBoth();
      const quotaBefore = await readQuota();
      const answers = await Promise.all(
        urls.map((url) => Promise.all(instances.map((instance) => play(instance, url)))),
      );
      for (const [first, second] of answers) {
        assert.deepEqual([first!.status, second!.status], [200, 200]);
        assert.ok(first!.bytes.length > 1000);
        // The same file behind each instance's tags (without PUBLIC_URL each names the sound by its own address).
        assert.deepEqual(withoutId3(second!.bytes), withoutId3(first!.bytes), 'the same file from both');
      }
      assert.equal((await madeByBoth()) - madeBefore, 3, 'each made by one instance only');
      assert.equal(spent(quotaBefore, await readQuota()), 3 * 10, 'ten requests per rendition, once');
      // Stored now: either instance serves it again without making or charging anything.
      const quotaAfter = await readQuota();
      for (const instance of instances) {
        const again = await play(instance, urls[0]!);
        assert.equal(again.status, 200);
        assert.deepEqual(withoutId3(again.bytes), withoutId3(answers[0]![0]!.bytes));
      }
      assert.equal((await madeByBoth()) - madeBefore, 3);
      assert.equal(spent(quotaAfter, await readQuota()), 0);
    },
  );

  test(
    'renditions.claim.stale: a claim left by an instance that died is ' +
      'taken over once it expires, and the rendition is made and charged once',
    async (t) => {
      const sound = sounds[3]!;
      const url = await signed(sound.id, '?loudness=-20');
      const fileKey = renditionKey(sound.contentHash, renditionChoice(-20, undefined));
      // As a dead instance would leave it: claimed, no file, expiring a moment from now.
      const database = await otherConnection(dataDir);
      const at = new Date().toISOString();
      try {
        await database.run(
          'INSERT INTO renditions (file_key, bytes, duration, made_at, ' +
            'last_served_at, claimed_by, claim_expires_at) VALUES (?, 0, 0, ?, ?, ?, ?)',
          fileKey,
          at,
          at,
          'an instance that died',
          new Date(Date.now() + 1500).toISOString(),
        );
      } finally {
        await database.close();
      }
      const madeBefore = await madeByBoth();
      const quotaBefore = await readQuota();
      const started = performance.now();
      const answers = await Promise.all(instances.map((instance) => play(instance, url)));
      const waited = performance.now() - started;
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200],
      );
      assert.deepEqual(withoutId3(answers[1]!.bytes), withoutId3(answers[0]!.bytes));
      assert.ok(waited >= 1000, `both waited for the claim to expire (${Math.round(waited)} ms)`);
      t.diagnostic(`served ${Math.round(waited)} ms after asking, the claim expiring after 1500 ms`);
      assert.equal((await madeByBoth()) - madeBefore, 1, 'made once, by the instance that took the claim over');
      assert.equal(spent(quotaBefore, await readQuota()), 10);
      const after = await otherConnection(dataDir);
      try {
        const rows = await after.all<{ claimed_by: string | null; bytes: number }>(
          'SELECT claimed_by, bytes FROM renditions WHERE file_key = ?',
          fileKey,
        );
        assert.equal(rows.length, 1);
        assert.equal(rows[0]!.claimed_by, null, 'stored: the claim is gone');
        assert.equal(Number(rows[0]!.bytes), withoutId3(answers[0]!.bytes).length, 'the stored file, untagged');
      } finally {
        await after.close();
      }
    },
  );
});
