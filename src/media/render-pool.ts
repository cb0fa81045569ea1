import { Piscina } from 'piscina';
import type { Job, JobResult, JobWithoutId } from '../ingest/jobs.ts';

export type RenderJob = Extract<JobWithoutId, { kind: 'render' }>;

/**
 * The worker threads renditions are made on: the ingest workers' code (ingest/worker.ts) in a
 * pool of its own, sized by RENDITIONS_CONCURRENCY, with piscina's bounded queue (a job past it
 * is refused at once) and its per-job AbortSignal (a waiting job is taken out of the queue).
 */
export class RenderPool {
  private readonly piscina: Piscina<Job, JobResult>;
  private nextId = 1;

  constructor(readonly concurrency: number, readonly maxWaiting: number) {
    // Compiled (dist/), workers start from worker-thread.js; from sources, worker-entry.js registers tsx first.
    const entry = import.meta.url.endsWith('.js') ? '../ingest/worker-thread.js' : '../ingest/worker-entry.js';
    this.piscina = new Piscina({
      filename: new URL(entry, import.meta.url).href,
      // Threads start with the first rendition, not with every server that never makes one.
      minThreads: 0,
      maxThreads: concurrency,
      maxQueue: maxWaiting,
      // An idle pool gives its threads (and their memory) back after a while.
      idleTimeout: 60_000,
      execArgv: [],
    });
  }

  run(job: RenderJob, signal: AbortSignal): Promise<JobResult> {
    return this.piscina.run({ ...job, id: this.nextId++ }, { signal });
  }

  /** Jobs waiting for a thread. */
  get waiting(): number {
    return this.piscina.queueSize;
  }

  /** Stops every worker now; jobs not finished are rejected. */
  close(): Promise<void> {
    return this.piscina.destroy();
  }
}

/** Whether piscina refused a job because its queue was full. */
export function isQueueFull(error: unknown): boolean {
  return error instanceof Error && error.message === 'Task queue is at limit';
}
