/**
 * Audio analysis: duration, timing, integrated loudness, true peak and waveform overview, as the
 * analysis specification (analysis.md) defines them. Whole buffers go through analyzeAudio; long
 * files are streamed through createAnalyzer (or analyzeChunks) with bounded memory and the same
 * results.
 */
import type { AudioMeasurements, PcmAudio } from '../types.ts';
import { createAnalyzer } from './analyzer.ts';

export { createAnalyzer, type AudioAnalyzer } from './analyzer.ts';
export { WAVEFORM_POINTS } from './waveform.ts';

export function analyzeAudio(audio: PcmAudio): AudioMeasurements {
  const analyzer = createAnalyzer(audio.sampleRate, audio.channels.length);
  analyzer.push(audio.channels);
  return analyzer.finish();
}

/** Streams consecutive chunks (one Float32Array per channel each) from a decoder or reader. */
export async function analyzeChunks(
  sampleRate: number,
  channelCount: number,
  chunks: AsyncIterable<readonly Float32Array[]> | Iterable<readonly Float32Array[]>,
): Promise<AudioMeasurements> {
  const analyzer = createAnalyzer(sampleRate, channelCount);
  for await (const chunk of chunks) analyzer.push(chunk);
  return analyzer.finish();
}
