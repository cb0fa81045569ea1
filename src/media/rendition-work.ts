import type { StoredSound } from '../catalog/sound.ts';
import { OPUS_RATE } from '../audio/encode/output-format.ts';
import type { RenditionChoice } from './rendition-choice.ts';

/**
 * What making a rendition asks of the service, worked out before it is made from the catalog's
 * record: its price, how long its job may run, how much disk it takes. One table of weights for
 * rates, channels and depths against the catalog's default (44.1 kHz stereo, 16 bits): the work
 * of decoding, resampling, measuring and encoding grows with the samples written.
 */

/** Requests of the daily quota per started RENDITION_PRICE_SECONDS of output, at the default rate, channels, depth. */
export const RENDITION_PRICE = 10;
export const RENDITION_PRICE_SECONDS = 600;

/**
 * The rate and channels assumed for a rendition that keeps the sound's own: the catalog does not
 * record them, and reading every MP3's header would cost a file read per sound. Its MP3s keep
 * their source's, most often 44.1 kHz stereo.
 */
export const USUAL_RATE = 44_100;
export const USUAL_CHANNELS = 2;

/** Weight of an output's rate, by the highest rate of each step (rates between 8 and 192 kHz). */
export const RATE_WEIGHTS: ReadonlyArray<{ upTo: number; weight: number }> = [
  { upTo: 24_000, weight: 0.5 },
  { upTo: 48_000, weight: 1 },
  { upTo: 96_000, weight: 2 },
  { upTo: 192_000, weight: 4 },
];
export const CHANNEL_WEIGHTS = { 1: 0.5, 2: 1 } as const;
export const DEPTH_WEIGHTS = { 16: 1, 24: 1.5 } as const;

/** How long a render job may run on its thread before it is stopped: a floor, and more per weighted output second. */
export interface RenderTimeLimit {
  floorMs: number;
  msPerWeightedSecond: number;
}

/** Generous on a loaded machine: a job past it hangs or was asked far more than its price says. */
export const DEFAULT_RENDER_TIME_LIMIT: RenderTimeLimit = { floorMs: 60_000, msPerWeightedSecond: 250 };

/** Seconds of the rendition's output: all the sound, or onset to tail when trimmed, cut at `maxSeconds`. */
export function outputSeconds(sound: StoredSound, choice: RenditionChoice): number {
  const { onset_ms: onset, tail_ms: tail } = sound.timing;
  const trimmed = choice.trim && onset !== null && tail !== null && tail > onset;
  const kept = trimmed ? (tail! - onset!) / 1000 : Math.max(0, sound.duration);
  return Math.min(kept, choice.maxSeconds ?? kept);
}

/** The output's rate, channels and depth, weighted against the default's (1). */
export function workWeight(choice: RenditionChoice): number {
  const rate = choice.format === 'opus' ? OPUS_RATE : (choice.sampleRate ?? USUAL_RATE);
  const rateWeight = RATE_WEIGHTS.find((step) => rate <= step.upTo)?.weight ?? RATE_WEIGHTS.at(-1)!.weight;
  return rateWeight * CHANNEL_WEIGHTS[choice.channels ?? USUAL_CHANNELS] * DEPTH_WEIGHTS[choice.bitDepth ?? 16];
}

/**
 * What making this rendition costs the paying account, in requests of its daily quota:
 * RENDITION_PRICE per started RENDITION_PRICE_SECONDS of output, times its weight, rounded up
 * (at least 1). The one price of a rendition, wherever it is made (media URL, pack, preview).
 */
export function renditionPrice(sound: StoredSound, choice: RenditionChoice): number {
  const blocks = Math.max(1, Math.ceil(outputSeconds(sound, choice) / RENDITION_PRICE_SECONDS));
  return Math.max(1, Math.ceil(RENDITION_PRICE * blocks * workWeight(choice)));
}

/** The time limit of this rendition's job. */
export function renderTimeLimitMs(sound: StoredSound, choice: RenditionChoice, limit: RenderTimeLimit): number {
  return Math.round(limit.floorMs + limit.msPerWeightedSecond * outputSeconds(sound, choice) * workWeight(choice));
}

/** A WAV file's header before its samples (RIFF, fmt and data chunks; WAVE_FORMAT_EXTENSIBLE for 24 bits). */
const WAV_HEADER_BYTES = 68;
/**
 * FLAC's share of the same PCM, about: the synthesized sounds shrink to under half
 * (docs/performance.md, packs), recordings with a noise floor keep more.
 */
const FLAC_SHARE_OF_PCM = 0.5;
/**
 * Bytes per second per channel of the lossy encoders as configured (audio/encode/): libvorbis at
 * quality 6 is about 190 kbit/s for stereo, libopus is set to 64 kbit/s per channel; Ogg's pages
 * add a little to each.
 */
const VORBIS_BYTES_PER_CHANNEL_SECOND = 96_000 / 8;
const OPUS_BYTES_PER_CHANNEL_SECOND = 66_000 / 8;

/**
 * A rendition's size, estimated before it is made: WAV is its rate x channels x depth x seconds;
 * FLAC a share of that; Vorbis and Opus their encoders' bit rates per channel; an MP3 rendition
 * the original's bytes per second, since it is encoded as the original was.
 */
export function estimateRenditionBytes(sound: StoredSound, choice: RenditionChoice): number {
  const seconds = outputSeconds(sound, choice);
  const channels = choice.channels ?? USUAL_CHANNELS;
  const pcmBytesPerSecond = (choice.sampleRate ?? USUAL_RATE) * channels * ((choice.bitDepth ?? 16) / 8);
  switch (choice.format) {
    case 'wav':
      return WAV_HEADER_BYTES + pcmBytesPerSecond * seconds;
    case 'flac':
      return FLAC_SHARE_OF_PCM * pcmBytesPerSecond * seconds;
    case 'ogg':
      return VORBIS_BYTES_PER_CHANNEL_SECOND * channels * seconds;
    // Opus has one rate, 48 kHz, so only the channels change its size.
    case 'opus':
      return OPUS_BYTES_PER_CHANNEL_SECOND * channels * seconds;
    case undefined:
      return sound.duration > 0 ? (sound.fileSize / sound.duration) * seconds : sound.fileSize;
  }
}

/** The price rule in words, from the tables above: what the API's and the tools' descriptions say. */
export function renditionPriceText(): string {
  const rates = RATE_WEIGHTS.map((step) => `x${step.weight} up to ${step.upTo / 1000} kHz`).join(', ');
  return (
    `${RENDITION_PRICE} requests per started ${RENDITION_PRICE_SECONDS / 60} minutes of output, ` +
    `weighted by its rate (${rates}; ` +
    `the source's own counts as ${USUAL_RATE / 1000} kHz, Opus as 48), channels (x${CHANNEL_WEIGHTS[1]} for mono) ` +
    `and depth (x${DEPTH_WEIGHTS[24]} for 24 bits), rounded up`
  );
}
