/**
 * Ready-to-use renditions of a delivered MP3: cut to its sound (from onset to tail), cut to a
 * maximum length with a short fade-out (previews), and/or brought to a target integrated
 * loudness with the true peak at or under -1 dBTP, then encoded and measured again, so what is
 * stated about the file is what the file is.
 *
 * Loudness: the gain is the target minus the measured loudness; where that gain would push the
 * peaks past the ceiling, a look-ahead limiter holds them down. Limiting lowers the loudness and
 * MP3 encoding moves peaks a little, so the result is measured on the decoded MP3 and the gain
 * and ceiling corrected, a few times at most, until it is within TOLERANCE_LU of the target with
 * its true peak at or under MAX_TRUE_PEAK_DB.
 */
import { analyzeAudio } from './analyze/index.ts';
import { decodeAudio } from './decode/index.ts';
import { encodeMp3 } from './encode/index.ts';
import type { AudioMeasurements, PcmAudio } from './types.ts';

export const MAX_TRUE_PEAK_DB = -1;
/** How close to the target a rendition is made (the promise to clients is 0.5 LU). */
const TOLERANCE_LU = 0.2;
const ATTEMPTS = 8;
/** The limiter's first ceiling, below MAX_TRUE_PEAK_DB for the peaks between samples and those encoding adds. */
const FIRST_CEILING_DB = -1.8;
const LOOKAHEAD_S = 0.005;
const RELEASE_S = 0.02;
/** The fade-out of a sound cut short by `maxMs`: long enough not to click, short enough to keep the sound. */
const CUT_FADE_S = 0.25;

export interface RenditionSpec {
  /** Target integrated loudness, LUFS. */
  loudness?: number;
  /** Keep only this stretch, in milliseconds from the start. */
  trim?: { startMs: number; endMs: number };
  /** Keep at most this many milliseconds (after trim), fading out over the last CUT_FADE_S. */
  maxMs?: number;
}

export interface Rendition {
  mp3: Uint8Array;
  measurements: AudioMeasurements;
}

export async function renderRendition(mp3: Uint8Array, spec: RenditionSpec): Promise<Rendition> {
  let audio: PcmAudio = await decodeAudio(mp3);
  if (spec.trim) audio = cut(audio, spec.trim.startMs, spec.trim.endMs);
  // Cut before measuring: the loudness target is for what the listener hears.
  if (spec.maxMs !== undefined) audio = shorten(audio, spec.maxMs);
  const measured = analyzeAudio(audio).loudness.integrated_lufs;
  if (spec.loudness === undefined || measured === null) return encodeAndMeasure(audio);

  const target = spec.loudness;
  let gainDb = target - measured;
  let ceilingDb = FIRST_CEILING_DB;
  let best: Rendition | null = null;
  let previous: { gainDb: number; lufs: number } | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = await encodeAndMeasure(limit(amplify(audio, gainDb), ceilingDb));
    const { integrated_lufs: lufs, true_peak_db: peak } = candidate.measurements.loudness;
    if (lufs === null || peak === null) return candidate;
    if (best === null || isBetter(candidate, best, target)) best = candidate;
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
function isBetter(a: Rendition, b: Rendition, target: number): boolean {
  const peakOk = (r: Rendition) => (r.measurements.loudness.true_peak_db ?? -Infinity) <= MAX_TRUE_PEAK_DB;
  if (peakOk(a) !== peakOk(b)) return peakOk(a);
  const miss = (r: Rendition) => Math.abs((r.measurements.loudness.integrated_lufs ?? Infinity) - target);
  return miss(a) < miss(b);
}

async function encodeAndMeasure(audio: PcmAudio): Promise<Rendition> {
  const mp3 = await encodeMp3(audio);
  return { mp3, measurements: analyzeAudio(await decodeAudio(mp3)) };
}

function cut(audio: PcmAudio, startMs: number, endMs: number): PcmAudio {
  const length = audio.channels[0]?.length ?? 0;
  const start = Math.max(0, Math.min(length, Math.round((startMs * audio.sampleRate) / 1000)));
  const end = Math.max(start, Math.min(length, Math.round((endMs * audio.sampleRate) / 1000)));
  if (end - start === 0) return audio;
  return { sampleRate: audio.sampleRate, channels: audio.channels.map((channel) => channel.slice(start, end)) };
}

/** The first `maxMs` of the audio with a linear fade-out at the end; audio already short enough is kept whole. */
function shorten(audio: PcmAudio, maxMs: number): PcmAudio {
  const length = Math.round((maxMs * audio.sampleRate) / 1000);
  if ((audio.channels[0]?.length ?? 0) <= length) return audio;
  const fade = Math.min(length, Math.round(CUT_FADE_S * audio.sampleRate));
  const channels = audio.channels.map((channel) => {
    const kept = channel.slice(0, length);
    for (let i = 0; i < fade; i++) kept[length - 1 - i] = kept[length - 1 - i]! * (i / fade);
    return kept;
  });
  return { sampleRate: audio.sampleRate, channels };
}

function amplify(audio: PcmAudio, gainDb: number): PcmAudio {
  const gain = 10 ** (gainDb / 20);
  return { sampleRate: audio.sampleRate, channels: audio.channels.map((channel) => channel.map((x) => x * gain)) };
}

/**
 * A look-ahead limiter: the gain needed to keep each sample under the ceiling is taken as the
 * minimum over the next LOOKAHEAD_S, smoothed over the same span (so the gain is already down
 * when a peak arrives, without a click), and recovers over RELEASE_S. Audio under the ceiling
 * passes unchanged.
 */
export function limit(audio: PcmAudio, ceilingDb: number): PcmAudio {
  const { channels, sampleRate } = audio;
  const length = channels[0]?.length ?? 0;
  const ceiling = 10 ** (ceilingDb / 20);
  const needed = new Float64Array(length);
  let over = false;
  for (let i = 0; i < length; i++) {
    let peak = 0;
    for (const channel of channels) peak = Math.max(peak, Math.abs(channel[i]!));
    needed[i] = peak > ceiling ? ceiling / peak : 1;
    if (peak > ceiling) over = true;
  }
  if (!over) return audio;
  const span = Math.max(1, Math.round(LOOKAHEAD_S * sampleRate));
  const ahead = slidingMinimumAhead(needed, span);
  const release = Math.exp(-1 / (RELEASE_S * sampleRate));
  const output = channels.map(() => new Float32Array(length));
  let sum = span; // the average of `ahead` over the last `span` samples, with 1 before the start
  let gain = 1;
  for (let i = 0; i < length; i++) {
    sum += ahead[i]! - (i >= span ? ahead[i - span]! : 1);
    const smoothed = Math.min(sum / span, ahead[i]!);
    gain = Math.min(smoothed, release * gain + (1 - release) * smoothed);
    for (let c = 0; c < channels.length; c++) output[c]![i] = channels[c]![i]! * gain;
  }
  return { sampleRate, channels: output };
}

/** result[i] = the smallest of values[i .. i + span - 1] (a monotonic queue, from the end). */
function slidingMinimumAhead(values: Float64Array, span: number): Float64Array {
  const result = new Float64Array(values.length);
  const queue = new Int32Array(values.length);
  let head = 0;
  let tail = 0;
  for (let i = values.length - 1; i >= 0; i--) {
    while (tail > head && values[queue[tail - 1]!]! >= values[i]!) tail--;
    queue[tail++] = i;
    while (queue[head]! >= i + span) head++;
    result[i] = values[queue[head]!]!;
  }
  return result;
}
