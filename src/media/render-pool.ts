import { Piscina } from 'piscina';
import type { Job, JobResult, JobWithoutId } from '../audio/jobs.ts';
import { workerFiles } from '../ingest/worker-pool.ts';

/** What the pool runs: renditions, pictures and packs' sprites. */
export type PoolJob = Extract<JobWithoutId, { kind: 'render' | 'picture' | 'sprite' }>;

/** Every thread is busy and `maxWaiting` jobs wait already: the job is refused at once. */
export class RenderQueueFullError extends Error {
  constructor() {
    super('the render queue is full');
  }
}

/** A job ran on its thread past its time limit: the thread was stopped (and its job with it). */
export class RenderTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`the render job ran past its limit of ${limitMs} ms and was stopped`);
  }
}

/**
 * The worker threads renditions (and pictures and sprites) are made on: the ingest workers' code (ingest/worker.ts) in a
 * pool of its own, sized by RENDITIONS_CONCURRENCY. Jobs wait in a bounded line here, not in
 * piscina's queue, and are handed over only when a thread is free: a job's time limit then counts
 * its own work, never its wait. Past the limit, or when its `signal` aborts, piscina stops the
 * thread running it (a waiting job just leaves the line).
 */
export class RenderPool {
  private readonly piscina: Piscina<Job, JobResult>;
  private nextId = 1;
  private running = 0;
  /** Jobs waiting for a thread, each started by the job before it ending. */
  private readonly line: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {
    this.piscina = new Piscina({
      ...workerFiles(),
      // Threads start with the first rendition, not with every server that never makes one.
      minThreads: 0,
      maxThreads: concurrency,
      // An idle pool gives its threads (and their memory) back after a while.
      idleTimeout: 60_000,
      execArgv: [],
    });
  }

  /**
   * Runs `job` once a thread is free (calling `onThread` then), for at most `timeLimitMs` on it;
   * rejects with RenderTimeoutError past that.
   */
  async run(job: PoolJob, signal: AbortSignal, timeLimitMs: number, onThread?: () => void): Promise<JobResult> {
    await this.turn(signal);
    onThread?.();
    const timer = AbortSignal.timeout(timeLimitMs);
    try {
      return await this.piscina.run({ ...job, id: this.nextId++ }, { signal: AbortSignal.any([signal, timer]) });
    } catch (error) {
      throw timer.aborted && !signal.aborted ? new RenderTimeoutError(timeLimitMs) : error;
    } finally {
      // The thread goes to the next in line, or is free.
      const next = this.line.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Jobs waiting for a thread. */
  get waiting(): number {
    return this.line.length;
  }

  /** Jobs on a thread. */
  get busy(): number {
    return this.running;
  }

  /** Stops every worker now; jobs not finished are rejected. */
  close(): Promise<void> {
    return this.piscina.destroy();
  }

  /** Resolves when this job holds a thread: at once if one is free, else in the order jobs came. */
  private turn(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.running < this.concurrency && this.line.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    if (this.line.length >= this.maxWaiting) return Promise.reject(new RenderQueueFullError());
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        signal.removeEventListener('abort', leave);
        resolve();
      };
      // Out of the line at once, so the next one in it counts as started when a thread frees.
      const leave = () => {
        this.line.splice(this.line.indexOf(start), 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      this.line.push(start);
    });
  }
}
