/**
 * Ready-to-use renditions of a delivered MP3: cut to its sound (from onset to tail), cut to a
 * maximum length with a short fade-out (previews), and/or brought to a target integrated
 * loudness with the true peak at or under -1 dBTP, then encoded to a file and measured on that
 * file, so what is stated about the file is what the file is.
 *
 * Nothing holds the whole sound: the source is decoded in chunks, once to measure its loudness,
 * then again per attempt through gain and limiter straight into the file, which is decoded in
 * chunks to be measured. Memory does not grow with the sound's length.
 *
 * Formats: the file is MP3 unless the spec asks for WAV, FLAC, Ogg Vorbis or Opus, at a rate
 * and channel count of its own. The audio is brought to those (encode/conform.ts) before it is
 * measured and leveled, so the limiter holds the peaks of what the file will hold. An Opus file
 * is measured on libopus's decoding of each packet as it is made (encode/opus-encoder.ts).
 *
 * Loudness: the gain is the target minus the measured loudness; where that gain would push the
 * peaks past the ceiling, a look-ahead limiter holds them down. Limiting lowers the loudness and
 * MP3 encoding moves peaks a little, so the result is measured on the decoded MP3 and the gain
 * and ceiling corrected, a few times at most, until it is within TOLERANCE_LU of the target with
 * its true peak at or under MAX_TRUE_PEAK_DB.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { hundredths } from './analyze/analyzer.ts';
import { LoudnessMeter } from './analyze/loudness.ts';
import { TruePeakMeter } from './analyze/truepeak.ts';
import { openAudioStream } from './decode/index.ts';
import { Conformer, conformed } from './encode/conform.ts';
import { createFileEncoder } from './encode/file-encoder.ts';
import { type OutputChoice, type OutputTarget, outputTarget } from './encode/output-format.ts';
import { LookAheadLimiter } from './limiter.ts';
import { amplified, playedAudio, type PlayedPart } from './played-audio.ts';
import type { Loudness, PcmAudio } from './types.ts';

export const MAX_TRUE_PEAK_DB = -1;
/** How close to the target a rendition is made (the promise to clients is 0.5 LU). */
const TOLERANCE_LU = 0.2;
const ATTEMPTS = 8;
/** The limiter's first ceiling, below MAX_TRUE_PEAK_DB for the peaks between samples and those encoding adds. */
const FIRST_CEILING_DB = -1.8;
/**
 * Bytes read from a file at a time: what the MP3 decoder takes at once, so a preview reads little
 * past what it plays.
 */
const READ_BYTES = 64 * 1024;

export interface RenditionSpec extends PlayedPart {
  /** Target integrated loudness, LUFS. */
  loudness?: number;
  /** The file's format, rate, channels and depth; MP3 at the source's rate and channels when absent. */
  output?: OutputChoice;
}

/** What a rendition file is, measured on its decoded audio. */
export interface RenditionMeasurements {
  /** Seconds. */
  duration: number;
  loudness: Loudness;
}

/** How one attempt changes the played audio: gain, then the limiter at this ceiling. */
interface Leveling {
  gainDb: number;
  ceilingDb: number;
}

/**
 * Makes the rendition of the MP3 at `sourcePath` as a whole, synced file at `outputPath` and
 * measures it. On failure nothing is left at `outputPath`.
 */
export async function renderRendition(
  sourcePath: string,
  outputPath: string,
  spec: RenditionSpec,
): Promise<RenditionMeasurements> {
  const attemptPath = `${outputPath}.attempt`;
  await mkdir(path.dirname(outputPath), { recursive: true });
  try {
    return await render(sourcePath, outputPath, attemptPath, spec);
  } catch (error) {
    await rm(outputPath, { force: true });
    throw error;
  } finally {
    await rm(attemptPath, { force: true });
  }
}

async function render(
  sourcePath: string,
  outputPath: string,
  attemptPath: string,
  spec: RenditionSpec,
): Promise<RenditionMeasurements> {
  // Measured after cutting: the loudness target is for what the listener hears.
  const measured = spec.loudness === undefined ? null : await playedLoudness(sourcePath, spec);
  if (spec.loudness === undefined || measured === null) return writeRendition(sourcePath, spec, null, outputPath);

  const target = spec.loudness;
  let gainDb = target - measured;
  let ceilingDb = FIRST_CEILING_DB;
  let best: RenditionMeasurements | null = null;
  let previous: { gainDb: number; lufs: number } | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = await writeRendition(sourcePath, spec, { gainDb, ceilingDb }, attemptPath);
    // The best attempt so far is the one at `outputPath`.
    if (best === null || isBetter(candidate, best, target)) {
      await rename(attemptPath, outputPath);
      best = candidate;
    }
    const { integrated_lufs: lufs, true_peak_db: peak } = candidate.loudness;
    if (lufs === null || peak === null) break;
    const peakOk = peak <= MAX_TRUE_PEAK_DB;
    if (peakOk && Math.abs(lufs - target) <= TOLERANCE_LU) break;
    if (!peakOk) ceilingDb -= peak - MAX_TRUE_PEAK_DB + 0.1;
    // Too quiet with room left under the ceiling: let the limiter's peaks up to it.
    else if (lufs < target - TOLERANCE_LU && peak < MAX_TRUE_PEAK_DB - 0.3) ceilingDb += MAX_TRUE_PEAK_DB - 0.15 - peak;
    // Under the limiter a dB of gain adds less than a dB of loudness: the next gain follows the
    // slope the last two attempts measured (a secant step), at most 12 dB further.
    const slope = previous && gainDb !== previous.gainDb ? (lufs - previous.lufs) / (gainDb - previous.gainDb) : 1;
    previous = { gainDb, lufs };
    gainDb += Math.min(12, (target - lufs) / Math.min(1, Math.max(0.1, slope)));
  }
  return best!;
}

/** A rendition within the peak ceiling beats one over it; then the one nearer the target loudness. */
function isBetter(a: RenditionMeasurements, b: RenditionMeasurements, target: number): boolean {
  const peakOk = (r: RenditionMeasurements) => (r.loudness.true_peak_db ?? -Infinity) <= MAX_TRUE_PEAK_DB;
  if (peakOk(a) !== peakOk(b)) return peakOk(a);
  const miss = (r: RenditionMeasurements) => Math.abs((r.loudness.integrated_lufs ?? Infinity) - target);
  return miss(a) < miss(b);
}

/** The integrated loudness of the part the rendition plays, in one streaming pass; null for silence. */
async function playedLoudness(sourcePath: string, spec: RenditionSpec): Promise<number | null> {
  const { target, chunks } = await playedAndConformed(sourcePath, spec);
  const meter = new LoudnessMeter(target.sampleRate, target.channels);
  for await (const chunk of chunks) meter.push(chunk.channels, frameCount(chunk));
  return meter.finish();
}

/** The part the rendition plays, at the rendition's rate and channel count, in chunks. */
async function playedAndConformed(
  sourcePath: string,
  spec: RenditionSpec,
): Promise<{ target: OutputTarget; chunks: AsyncIterable<PcmAudio> }> {
  const source = await openAudioStream(createReadStream(sourcePath, { highWaterMark: READ_BYTES }), sourcePath);
  const target = outputTarget(spec.output ?? { format: 'mp3' }, source);
  const conformer = new Conformer(source.channelCount, source.sampleRate, target.channels, target.sampleRate);
  return { target, chunks: conformed(playedAudio(source.chunks, source.sampleRate, spec), conformer) };
}

/**
 * One pass: the played part, leveled when asked, encoded straight into a synced file at `path`;
 * then that file measured.
 */
async function writeRendition(
  sourcePath: string,
  spec: RenditionSpec,
  leveling: Leveling | null,
  outputPath: string,
): Promise<RenditionMeasurements> {
  const played = await playedAndConformed(sourcePath, spec);
  const { target } = played;
  let chunks = played.chunks;
  if (leveling)
    chunks = limited(
      amplified(chunks, leveling.gainDb),
      new LookAheadLimiter(target.sampleRate, target.channels, leveling.ceilingDb),
    );
  const heard = new Meters(target.sampleRate, target.channels);
  const handle = await open(outputPath, 'w');
  let measuresItself = false;
  try {
    const encoder = await createFileEncoder(handle, target, (chunk) => heard.push(chunk));
    measuresItself = encoder.measuresItself;
    let frames = 0;
    for await (const chunk of chunks) {
      frames += frameCount(chunk);
      await encoder.push(chunk);
    }
    if (frames === 0) throw new Error('the rendition would hold no audio');
    await encoder.finish();
    await handle.sync();
  } finally {
    await handle.close();
  }
  return measuresItself ? heard.finish() : measureFile(outputPath);
}

async function* limited(chunks: AsyncIterable<PcmAudio>, limiter: LookAheadLimiter): AsyncGenerator<PcmAudio> {
  for await (const chunk of chunks) yield limiter.push(chunk);
  yield limiter.flush();
}

/**
 * Duration, integrated loudness and true peak of a file, decoded in chunks, with analysis's own
 * meters and rounding (the rest of analysis is not needed and would cost more than the decoding).
 */
async function measureFile(filePath: string): Promise<RenditionMeasurements> {
  const stream = await openAudioStream(createReadStream(filePath, { highWaterMark: READ_BYTES }), filePath);
  const meters = new Meters(stream.sampleRate, stream.channelCount);
  for await (const chunk of stream.chunks) meters.push(chunk);
  return meters.finish();
}

/** Duration, integrated loudness and true peak of audio given in chunks. */
class Meters {
  private readonly loudness: LoudnessMeter;
  private readonly truePeak: TruePeakMeter;
  private frames = 0;

  constructor(
    private readonly sampleRate: number,
    channelCount: number,
  ) {
    this.loudness = new LoudnessMeter(sampleRate, channelCount);
    this.truePeak = new TruePeakMeter(sampleRate, channelCount);
  }

  push(chunk: PcmAudio): void {
    const length = frameCount(chunk);
    this.loudness.push(chunk.channels, length);
    this.truePeak.push(chunk.channels, length);
    this.frames += length;
  }

  finish(): RenditionMeasurements {
    return {
      duration: this.frames / this.sampleRate,
      loudness: {
        integrated_lufs: hundredths(this.loudness.finish()),
        true_peak_db: hundredths(this.truePeak.finish()),
      },
    };
  }
}

function frameCount(chunk: PcmAudio): number {
  return chunk.channels[0]?.length ?? 0;
}
