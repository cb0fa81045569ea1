import { setTimeout as sleep } from 'node:timers/promises';
import { RenditionsBusyError } from '../media/renditions.ts';

/** How often and how long a pack waits for a rendition thread when every one is busy. */
const BUSY_WAIT_MS = 1_000;
const BUSY_ATTEMPTS = 120;

/**
 * Runs `work` again every second while every rendition thread is busy and their line is full, two
 * minutes at most: a pack's ZIP has begun, so its status cannot say "busy" any more, and failing
 * would cut a ZIP already half sent. Any other error, or the client leaving, ends it at once.
 */
export async function whenThreadFree<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof RenditionsBusyError) || attempt >= BUSY_ATTEMPTS || signal.aborted) throw error;
      await sleep(BUSY_WAIT_MS, undefined, { signal });
    }
  }
}
