import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { utcDay } from '../../../src/quota/quota.ts';
import { createServices } from '../../../src/wiring.ts';
import { configFor, otherConnection, removeBackend } from '../../helpers/backend.ts';
import { startServe, type ServeProcess } from '../../helpers/process.ts';
import { addSound } from '../../helpers/sounds.ts';

const WORDS = ['rain', 'glass', 'door', 'laser', 'wind', 'step', 'bell', 'crash'];
const CLIENTS = 40;
/** Answers before the kill: enough for many event-loop turns, and more than 50 downloads. */
const MIN_ANSWERS = 400;

/** What the clients saw: answers by kind, and requests that got no answer because the server died. */
interface Seen {
  searches: number;
  downloads: number;
  /** Downloads answered 200, by sound id. */
  downloadsOf: Map<string, number>;
  /** Answers that were not 200 (none are expected: every request is valid). */
  others: number;
  unanswered: number;
}

/**
 * The server's counts after `kill -9` under load: every request answered 200 was counted before
 * its answer left (quota: usage_daily on the embedded default, the Redis counter with REDIS_URL),
 * and at most the requests in flight were counted without an answer. The same holds for each
 * sound's download count: a download is committed before it is answered.
 */
describe('crash: kill -9 under load loses no quota count and no download count', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: ServeProcess | undefined;
  let accountId: string;
  let key: string;
  let ids: string[];

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sc-crash-'));
    env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
    const services = await createServices(await configFor(dataDir));
    ids = [];
    for (const [n, word] of WORDS.entries()) {
      ids.push((await addSound(services, { name: `${word} sound ${n}`, tags: [word] })).id);
    }
    const account = await services.accounts.createAccount('crash@example.com', 'enterprise');
    accountId = account.id;
    ({ key } = await services.accounts.createKey(account.id, 'load'));
    await services.close();
  });

  after(async () => {
    server?.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    await removeBackend(dataDir);
  });

  test(
    "crash.counts: after kill -9, the quota and each sound's download " +
      'count cover every 200 answer, and at most the requests in flight more',
    async () => {
      server = await startServe(env);
      const running = server;
      const seen: Seen = { searches: 0, downloads: 0, downloadsOf: new Map(), others: 0, unanswered: 0 };
      let killed = false;
      let n = 0;
      const client = async () => {
        while (!killed) {
          const i = n++;
          const isDownload = i % 5 === 0;
          const id = ids[i % ids.length]!;
          const pathAndQuery = isDownload
            ? `/api/v1/sounds/${id}/download`
            : `/api/v1/sounds?q=${WORDS[i % WORDS.length]}&page=${1 + (i % 3)}`;
          let status: number;
          try {
            const response = await fetch(running.url + pathAndQuery, { headers: { 'x-api-key': key } });
            status = response.status;
            // The answer counts as received once its status is: the body may be cut by the kill.
            response.body?.cancel().catch(() => {});
          } catch {
            seen.unanswered++;
            continue;
          }
          if (status !== 200) seen.others++;
          else if (isDownload) {
            seen.downloads++;
            seen.downloadsOf.set(id, (seen.downloadsOf.get(id) ?? 0) + 1);
          } else seen.searches++;
        }
      };
      const clients = Array.from({ length: CLIENTS }, client);
      // Load until many event-loop turns have committed (counted in answers, not seconds: a busy
      // machine may answer slowly), then the crash.
      const started = Date.now();
      while (seen.searches + seen.downloads < MIN_ANSWERS && seen.others === 0 && Date.now() - started < 60_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      running.child.kill('SIGKILL');
      await new Promise((resolve) => running.child.once('exit', resolve));
      killed = true;
      await Promise.all(clients);

      const answered = seen.searches + seen.downloads;
      assert.equal(seen.others, 0, 'every request was valid');
      assert.ok(answered >= MIN_ANSWERS, `the load ran (${answered} answers)`);
      const quotaCount = await countedToday(dataDir, accountId);
      assert.ok(quotaCount >= answered, `quota count ${quotaCount} covers the ${answered} answers`);
      assert.ok(
        quotaCount <= answered + seen.unanswered,
        `quota count ${quotaCount} is at most ${answered} answers + ${seen.unanswered} in flight`,
      );

      const connection = await otherConnection(dataDir);
      const rows = await connection.all<{ id: string; n: number | string }>(
        'SELECT s.id, d.count AS n FROM sounds s JOIN sound_downloads d ON d.sound_seq = s.seq',
      );
      await connection.close();
      const stored = new Map(rows.map((row) => [row.id, Number(row.n)]));
      assert.ok(seen.downloads > 50, `downloads ran (${seen.downloads} answers)`);
      for (const [id, answers] of seen.downloadsOf) {
        assert.ok(
          (stored.get(id) ?? 0) >= answers,
          `sound ${id}: count ${stored.get(id)} covers its ${answers} download answers`,
        );
      }
      const downloads = [...stored.values()].reduce((sum, n) => sum + n, 0);
      assert.ok(
        downloads <= seen.downloads + seen.unanswered,
        `download count ${downloads} is at most ${seen.downloads} + ${seen.unanswered} in flight`,
      );

      // A new process starts from the committed count: the quota goes on from there.
      server = await startServe(env);
      const response = await fetch(`${server.url}/api/v1/sounds?q=rain`, { headers: { 'x-api-key': key } });
      assert.equal(response.status, 200);
      const limit = Number(response.headers.get('x-ratelimit-limit'));
      assert.equal(Number(response.headers.get('x-ratelimit-remaining')), limit - quotaCount - 1);
      await server.stop();
      server = undefined;
    },
  );
});

/** The day's count of the account as the quota will see it: Redis's counter when there is one, else the database's. */
async function countedToday(dataDir: string, accountId: string): Promise<number> {
  const day = utcDay(Date.now());
  if (process.env.REDIS_URL) {
    const redis = new Redis(process.env.REDIS_URL);
    try {
      return Number((await redis.get(`quota:${day}:${accountId}`)) ?? 0);
    } finally {
      redis.disconnect();
    }
  }
  const connection = await otherConnection(dataDir);
  try {
    const rows = await connection.all<{ count: number | string }>(
      'SELECT count FROM usage_daily WHERE account_id = ? AND day = ?',
      accountId,
      day,
    );
    return Number(rows[0]?.count ?? 0);
  } finally {
    await connection.close();
  }
}
