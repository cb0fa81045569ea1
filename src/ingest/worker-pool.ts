import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Job, JobResult, JobWithoutId } from '../audio/jobs.ts';

/**
 * Worker threads for ingest (piscina), one per core: decoding, encoding and analysis are CPU
 * work, and the main thread stays free to write to the database. A worker that dies (out of
 * memory on a hostile file, say) fails its job and piscina starts another.
 */
export class WorkerPool {
  private readonly piscina: Piscina<Job, JobResult>;
  private nextId = 1;

  readonly size: number;

  constructor(size = Math.max(1, availableParallelism())) {
    this.size = size;
    // Compiled (dist/), workers start from worker-thread.js; from sources, worker-entry.js registers tsx first.
    const entry = import.meta.url.endsWith('.js') ? './worker-thread.js' : './worker-entry.js';
    this.piscina = new Piscina({
      filename: new URL(entry, import.meta.url).href,
      minThreads: size,
      maxThreads: size,
      execArgv: [],
    });
  }

  run(job: JobWithoutId): Promise<JobResult> {
    return this.piscina.run({ ...job, id: this.nextId++ } as Job);
  }

  /** Stops every worker now; jobs not finished are rejected. */
  close(): Promise<void> {
    return this.piscina.destroy();
  }
}
