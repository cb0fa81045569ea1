import { DecodeError } from '../audio/decode/index.ts';
import type { Job, JobResult } from '../audio/jobs.ts';
import { renderPicture } from '../audio/pictures/index.ts';
import { renderRendition } from '../audio/render.ts';
import { renderSprite } from '../audio/sprite.ts';
import { synthesizeSound } from '../audio/synth/index.ts';
import { encodeAndMeasure, measureFile, probeFile } from './measure.ts';

/** What a worker thread does with one job (piscina calls it); a file it cannot read is a result, not a crash. */
export default async function runJob(job: Job): Promise<JobResult> {
  try {
    return await run(job);
  } catch (error) {
    const reason = error instanceof DecodeError ? error.message : `could not process: ${(error as Error).message}`;
    return { id: job.id, ok: false, reason };
  }
}

async function run(job: Job): Promise<JobResult> {
  if (job.kind === 'file') {
    const measured = await measureFile(job.sourcePath, job.temporaryPath, job.encoding);
    return { id: job.id, ok: true, kind: 'file', ...measured };
  }
  if (job.kind === 'probe') return { id: job.id, ok: true, kind: 'probe', ...(await probeFile(job.sourcePath)) };
  if (job.kind === 'render') {
    const measurements = await renderRendition(job.sourcePath, job.outputPath, job.spec);
    return { id: job.id, ok: true, kind: 'render', measurements };
  }
  if (job.kind === 'picture') {
    return {
      id: job.id,
      ok: true,
      kind: 'picture',
      bytes: await renderPicture(job.sourcePath, job.outputPath, job.spec),
    };
  }
  if (job.kind === 'sprite') {
    return { id: job.id, ok: true, kind: 'sprite', entries: await renderSprite(job.spec, job.oggPath, job.mp3Path) };
  }
  const sound = synthesizeSound(job.seed, job.index);
  const { mp3, sampleRate, measurements } = await encodeAndMeasure(sound.audio);
  const { audio: _audio, ...metadata } = sound;
  return { id: job.id, ok: true, kind: 'synth', mp3, sampleRate, measurements, metadata };
}
