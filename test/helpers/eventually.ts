import assert from 'node:assert/strict';

/**
 * Asks `read` until `holds` is true of its answer, for at most `withinMs` (a change made by
 * another process reaches the search index within the change feed's polling interval), then
 * asserts on the last answer, so a failure shows what was seen.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  holds: (value: T) => boolean,
  withinMs = 1000,
  message?: string,
): Promise<T> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (performance.now() > deadline)
      assert.fail(`${message ?? 'condition not met'} within ${withinMs} ms; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
