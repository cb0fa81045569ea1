import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Job, JobResult, JobWithoutId } from './jobs.ts';

/**
 * A fixed set of worker threads, one per core: decoding, encoding and analysis are CPU work,
 * and the main thread stays free to write to the database.
 */
export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<{ job: Job; resolve: (result: JobResult) => void; reject: (error: Error) => void }> = [];
  private readonly running = new Map<Worker, { resolve: (result: JobResult) => void; reject: (error: Error) => void }>();
  private readonly workers: Worker[] = [];
  private nextId = 1;
  private closed = false;

  readonly size: number;

  constructor(size = Math.max(1, availableParallelism())) {
    this.size = size;
    for (let i = 0; i < size; i++) this.workers.push(this.spawn());
    this.idle.push(...this.workers);
  }

  run(job: JobWithoutId): Promise<JobResult> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ job: { ...job, id: this.nextId++ } as Job, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker now; jobs not finished are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const { reject } of this.waiting.splice(0)) reject(new Error('interrupted'));
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  private spawn(): Worker {
    // Compiled (dist/), the worker module runs as it is; from sources, worker-entry.js registers tsx first.
    const entry = import.meta.url.endsWith('.js') ? './worker.js' : './worker-entry.js';
    const worker = new Worker(new URL(entry, import.meta.url), { execArgv: [] });
    worker.on('message', (result: JobResult) => {
      const task = this.running.get(worker);
      this.running.delete(worker);
      this.idle.push(worker);
      task?.resolve(result);
      this.dispatch();
    });
    // A worker that dies (out of memory on a hostile file, say) fails its job and is replaced.
    worker.on('error', (error) => {
      const task = this.running.get(worker);
      this.running.delete(worker);
      task?.reject(error);
      if (this.closed) return;
      const replacement = this.spawn();
      this.workers.splice(this.workers.indexOf(worker), 1, replacement);
      this.idle.push(replacement);
      this.dispatch();
    });
    return worker;
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.waiting.length > 0) {
      const worker = this.idle.pop()!;
      const { job, resolve, reject } = this.waiting.shift()!;
      this.running.set(worker, { resolve, reject });
      worker.postMessage(job);
    }
  }
}
