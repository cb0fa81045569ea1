import { Redis } from 'ioredis';
import { nextUtcMidnight, utcDay, type QuotaCounter, type QuotaDecision } from './quota.ts';
import type { UsageHistory } from './usage-history.ts';

/**
 * Checks the day's count against the limit and counts the request, in one step on the server, so
 * no two instances can both take the last request. A refused request is not counted. The day's
 * key expires an hour after the next midnight UTC by the caller's clock (ARGV[2]: seconds from
 * now), so a clock a little behind still finds it. ARGV[3] is the cost. Returns the new count, or -1 - the count when refused.
 */
const CONSUME = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count + tonumber(ARGV[3]) > tonumber(ARGV[1]) then return -1 - count end
count = redis.call('INCRBY', KEYS[1], ARGV[3])
if count == tonumber(ARGV[3]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return count`;

/** Never hang a request on Redis: a command gets this long, and none waits for a reconnection. */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;

/**
 * The daily counter shared by every instance (REDIS_URL): one key per account and UTC day. While
 * Redis is unreachable, requests that need the quota fail at once (500), never pass unchecked;
 * ioredis reconnects by itself and counting resumes.
 */
export class RedisQuotaCounter implements QuotaCounter {
  private readonly redis: Redis & { consumeQuota(key: string, limit: number, expiresInSeconds: number, cost: number): Promise<number> };

  private constructor(redis: Redis, private readonly history: UsageHistory) {
    redis.defineCommand('consumeQuota', { numberOfKeys: 1, lua: CONSUME });
    this.redis = redis as RedisQuotaCounter['redis'];
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
    const expiresIn = reset + 3600 - Math.floor(now / 1000);
    const count = await this.redis.consumeQuota(`quota:${day}:${accountId}`, limit, expiresIn, cost);
    if (count < 0) return { allowed: false, limit, remaining: Math.max(0, limit - (-1 - count)), reset };
    this.history.add(accountId, keyId, day, cost);
    return { allowed: true, limit, remaining: Math.max(0, limit - count), reset };
  }

  async ready(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
