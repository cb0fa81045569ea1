import { parentPort } from 'node:worker_threads';
import { DecodeError } from '../audio/decode/index.ts';
import { synthesizeSound } from '../audio/synth/index.ts';
import { encodeAndMeasure, measureFile } from './measure.ts';
import type { Job, JobResult } from './jobs.ts';

/** A worker thread: takes one job at a time from the pool and answers with its result. */
parentPort!.on('message', async (job: Job) => {
  try {
    parentPort!.postMessage(await run(job));
  } catch (error) {
    const reason = error instanceof DecodeError ? error.message : `could not process: ${(error as Error).message}`;
    parentPort!.postMessage({ id: job.id, ok: false, reason } satisfies JobResult);
  }
});

async function run(job: Job): Promise<JobResult> {
  if (job.kind === 'file') {
    const measured = await measureFile(job.sourcePath, job.temporaryPath, job.encoding);
    return { id: job.id, ok: true, kind: 'file', ...measured };
  }
  const sound = synthesizeSound(job.seed, job.index);
  const { mp3, measurements } = await encodeAndMeasure(sound.audio);
  const { audio: _audio, ...metadata } = sound;
  return { id: job.id, ok: true, kind: 'synth', mp3, measurements, metadata };
}
