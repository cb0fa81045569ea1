import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ResultCache } from '../../src/catalog/result-cache.ts';

/** A load that resolves when the test says, counting how often it was started. */
function deferredLoads() {
  const pending: Array<(value: string[]) => void> = [];
  return {
    started: () => pending.length,
    load: () => new Promise<string[]>((resolve) => pending.push(resolve)),
    finish: (index: number, value: string[]) => pending[index]!(value),
  };
}

/** Asks the cache so often that the answer is kept (from a query's second asking). */
async function kept<T>(cache: ResultCache<T>, key: string, version: number, load: () => Promise<T>): Promise<T> {
  await cache.getOrLoad(key, version, load);
  return cache.getOrLoad(key, version, load);
}

describe('result cache', () => {
  test('cache.shared-load: requests that miss together share one load', async () => {
    const cache = new ResultCache<string[]>();
    const loads = deferredLoads();
    const waiting = [cache.getOrLoad('a', 1, loads.load), cache.getOrLoad('a', 1, loads.load), cache.getOrLoad('a', 1, loads.load)];
    assert.equal(loads.started(), 1);
    loads.finish(0, ['x']);
    assert.deepEqual(await Promise.all(waiting), [['x'], ['x'], ['x']]);
  });

  test('cache.second-ask: an answer is kept from the second time its query is asked', async () => {
    const cache = new ResultCache<number>({ capacity: 2 });
    let loads = 0;
    const load = async () => ++loads;
    assert.equal(await cache.getOrLoad('a', 1, load), 1);
    assert.equal(await cache.getOrLoad('a', 1, load), 2, 'asked once before: loaded again, and now kept');
    assert.equal(await cache.getOrLoad('a', 1, load), 2);
    for (const key of ['b', 'c', 'd']) await cache.getOrLoad(key, 1, load);
    assert.equal(await cache.getOrLoad('a', 1, load), 2, 'queries asked once push no kept answer out');
    cache.clear();
    assert.equal(await cache.getOrLoad('a', 1, load), 6, 'after a write, a query asked before is kept at once');
    assert.equal(await cache.getOrLoad('a', 1, load), 6);
  });

  test('cache.expiry: an answer older than the time to live is loaded again', async () => {
    let now = 0;
    const cache = new ResultCache<number>({ ttlMs: 1000, now: () => now });
    let loads = 0;
    const load = async () => ++loads;
    assert.equal(await kept(cache, 'a', 1, load), 2);
    now = 999;
    assert.equal(await cache.getOrLoad('a', 1, load), 2);
    now = 1002;
    assert.equal(await cache.getOrLoad('a', 1, load), 3);
    assert.equal(await cache.getOrLoad('a', 1, load), 3);
  });

  test('cache.version: a new database version (another process wrote) drops every answer', async () => {
    const cache = new ResultCache<number>();
    let loads = 0;
    const load = async () => ++loads;
    assert.equal(await kept(cache, 'a', 7, load), 2);
    assert.equal(await cache.getOrLoad('a', 8, load), 3);
    assert.equal(await cache.getOrLoad('a', 8, load), 3);
  });

  test('cache.clear-while-loading: an answer that was loading when a write cleared the cache is not kept', async () => {
    const cache = new ResultCache<string[]>();
    const loads = deferredLoads();
    const first = cache.getOrLoad('a', 1, loads.load);
    loads.finish(0, ['first']);
    await first;
    const before = cache.getOrLoad('a', 1, loads.load);
    cache.clear();
    loads.finish(1, ['old']);
    assert.deepEqual(await before, ['old'], 'the request that asked before the write gets its answer');
    const after = cache.getOrLoad('a', 1, loads.load);
    assert.equal(loads.started(), 3, 'the next request loads again');
    loads.finish(2, ['new']);
    assert.deepEqual(await after, ['new']);
    assert.deepEqual(await cache.getOrLoad('a', 1, loads.load), ['new']);
  });

  test('cache.capacity: the oldest answers go once the weight of all answers passes the capacity', async () => {
    const cache = new ResultCache<string[]>({ capacity: 5, weigh: (items) => items.length });
    let loads = 0;
    const load = (items: string[]) => async () => {
      loads++;
      return items;
    };
    await kept(cache, 'two', 1, load(['a', 'b']));
    await kept(cache, 'three', 1, load(['c', 'd', 'e']));
    await kept(cache, 'one', 1, load(['f']));
    assert.equal(loads, 6);
    await cache.getOrLoad('three', 1, load(['c', 'd', 'e']));
    await cache.getOrLoad('one', 1, load(['f']));
    assert.equal(loads, 6, 'the newer answers were kept');
    await cache.getOrLoad('two', 1, load(['a', 'b']));
    assert.equal(loads, 7, 'the oldest answer was dropped');
  });

  test('cache.failure: a load that fails is not kept, and the next request tries again', async () => {
    const cache = new ResultCache<number>();
    await cache.getOrLoad('a', 1, async () => 1);
    await assert.rejects(cache.getOrLoad('a', 1, () => Promise.reject(new Error('database busy'))), /database busy/);
    assert.equal(await cache.getOrLoad('a', 1, async () => 42), 42);
    assert.equal(await cache.getOrLoad('a', 1, async () => 43), 42);
  });

  test('cache.holds: an answer is the cache\'s until a write, a new version, its expiry or its eviction', async () => {
    let now = 0;
    const cache = new ResultCache<string[]>({ ttlMs: 1000, capacity: 2, weigh: (items) => items.length, now: () => now });
    const once = await cache.getOrLoad('a', 1, async () => ['x']);
    assert.equal(cache.holds(once, 1), false, 'asked once: not kept');
    const first = await cache.getOrLoad('a', 1, async () => ['x']);
    assert.equal(cache.holds(first, 1), true);
    assert.equal(cache.holds(['x'], 1), false, 'an equal answer that the cache did not give is not its own');

    cache.clear();
    assert.equal(cache.holds(first, 1), false, 'cleared by a write');

    const second = await cache.getOrLoad('a', 1, async () => ['x']);
    assert.equal(cache.holds(second, 2), false, 'another process wrote');

    const third = await cache.getOrLoad('a', 3, async () => ['x']);
    now = 1000;
    assert.equal(cache.holds(third, 3), false, 'expired');

    const fourth = await cache.getOrLoad('a', 3, async () => ['x']);
    await kept(cache, 'b', 3, async () => ['y', 'z']);
    assert.equal(cache.holds(fourth, 3), false, 'evicted for a newer answer');
  });
});
