import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Job, JobResult, JobWithoutId } from '../audio/jobs.ts';

/**
 * The files a worker thread starts from, for piscina: worker-handler.cjs, which piscina can
 * require() safely, and the worker's module, which that file imports: compiled (dist/), worker.js;
 * from sources, worker-entry.js, which registers tsx first.
 */
export function workerFiles(): { filename: string; workerData: { entry: string } } {
  const entry = import.meta.url.endsWith('.js') ? './worker.js' : './worker-entry.js';
  return {
    filename: new URL('./worker-handler.cjs', import.meta.url).href,
    workerData: { entry: new URL(entry, import.meta.url).href },
  };
}

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
    this.piscina = new Piscina({
      ...workerFiles(),
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
