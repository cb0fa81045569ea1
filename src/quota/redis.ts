import { Redis } from 'ioredis';
import { nextUtcMidnight, utcDay, type QuotaCounter, type QuotaDecision } from './quota.ts';
import type { UsageHistory } from './usage-history.ts';

/**
 * Checks the day's count against the limit and counts the request, in one step on the server, so
 * no two instances can both take the last request. A refused request is not counted. ARGV[1] is
 * the limit, ARGV[2] the cost. Returns the new count, -1 - the count when refused, or nil when the
 * day's key is missing: nothing is counted on a key that was not seeded from the usage history,
 * so a Redis that lost its data never hands out a fresh quota.
 */
const CONSUME = `
local stored = redis.call('GET', KEYS[1])
if not stored then return nil end
local count = tonumber(stored)
if count + tonumber(ARGV[2]) > tonumber(ARGV[1]) then return -1 - count end
return redis.call('INCRBY', KEYS[1], ARGV[2])`;

/** Gives back ARGV[1] on a day's key that exists: a missing key is seeded from the history, which has the refund. */
const REFUND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
return redis.call('DECRBY', KEYS[1], ARGV[1])`;

/** Never hang a request on Redis: a command gets this long, and none waits for a reconnection. */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;

type QuotaRedis = Redis & {
  consumeQuota(key: string, limit: number, cost: number): Promise<number | null>;
  refundQuota(key: string, cost: number): Promise<number | null>;
};

/**
 * The daily counter shared by every instance (REDIS_URL): one key per account and UTC day. While
 * Redis is unreachable, requests that need the quota fail at once (500), never pass unchecked;
 * ioredis reconnects by itself and counting resumes.
 *
 * A day's key is made from the usage history (the database, after this process has written what
 * it counted): on an account's first request of the day, and after Redis restarted empty or
 * evicted the key. Only one instance's seed is kept (SET NX); what other instances counted in
 * the second before Redis went away, not yet written to the history, is lost.
 */
export class RedisQuotaCounter implements QuotaCounter {
  private readonly redis: QuotaRedis;
  /** Seeds under way in this process, by key: concurrent requests of one account share one. */
  private readonly seeding = new Map<string, Promise<void>>();

  private constructor(
    redis: Redis,
    private readonly history: UsageHistory,
  ) {
    redis.defineCommand('consumeQuota', { numberOfKeys: 1, lua: CONSUME });
    redis.defineCommand('refundQuota', { numberOfKeys: 1, lua: REFUND });
    this.redis = redis as QuotaRedis;
  }

  /** Connects (or fails within the connect timeout) before the service starts. */
  static async connect(url: string, history: UsageHistory): Promise<RedisQuotaCounter> {
    const redis = new Redis(url, {
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    // Connection errors are retried by ioredis and seen by the requests that need Redis.
    redis.on('error', () => {});
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw new Error(`Redis at REDIS_URL does not answer: ${(error as Error).message}`);
    }
    return new RedisQuotaCounter(redis, history);
  }

  async consume(accountId: string, keyId: string | null, limit: number, now: number, cost = 1): Promise<QuotaDecision> {
    const day = utcDay(now);
    const reset = nextUtcMidnight(now);
    const key = `quota:${day}:${accountId}`;
    let count = await this.redis.consumeQuota(key, limit, cost);
    if (count === null) {
      // The key lives an hour past the next midnight UTC by this clock, so a clock a little behind still finds it.
      await this.seed(key, accountId, day, reset + 3600 - Math.floor(now / 1000));
      count = await this.redis.consumeQuota(key, limit, cost);
      if (count === null) throw new Error(`the quota key of account ${accountId} vanished right after it was made`);
    }
    if (count < 0) return { allowed: false, limit, remaining: Math.max(0, limit - (-1 - count)), reset };
    this.history.add(accountId, keyId, day, cost);
    // The count this request's own script returned: what is left as of this request, whatever others did since.
    return { allowed: true, limit, remaining: Math.max(0, limit - count), reset };
  }

  async refund(accountId: string, keyId: string | null, chargedAt: number, cost: number): Promise<void> {
    const day = utcDay(chargedAt);
    // Not DECRBY alone: on a missing key it would make one below the history's count, never seeded.
    await this.redis.refundQuota(`quota:${day}:${accountId}`, cost);
    this.history.add(accountId, keyId, day, -cost);
  }

  /** Calls `listener` on each error the connection reports (metrics/ counts them); ioredis reconnects by itself. */
  onConnectionError(listener: () => void): void {
    this.redis.on('error', listener);
  }

  async ready(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Makes the day's key from the usage history unless some instance made it first. */
  private seed(key: string, accountId: string, day: string, expiresInSeconds: number): Promise<void> {
    const under = this.seeding.get(key);
    if (under) return under;
    const seeding = (async () => {
      // usage() writes what this process counted first, so the count holds the database and that.
      const [count] = await this.history.usage(accountId, [day]);
      await this.redis.set(key, count!, 'EX', expiresInSeconds, 'NX');
    })().finally(() => this.seeding.delete(key));
    this.seeding.set(key, seeding);
    return seeding;
  }
}
