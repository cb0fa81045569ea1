import type { PcmAudio } from '../../types.ts';
import { applyFades } from './envelopes.ts';
import { onePoleHighpass } from './filters.ts';
import { samplesFor, scaleInPlace } from './mix.ts';

export interface FinishOptions {
  /** Peak level to normalize to, in dBFS (negative). */
  peakDb: number;
  /**
   * Loudness ceiling as RMS in dBFS: dense sounds (sustained tones, full mixes) are turned down
   * below their peak target so they do not play much louder than a click normalized the same way.
   */
  maxRmsDb?: number;
  fadeInSeconds?: number;
  fadeOutSeconds?: number;
  /** Silence put before the sound, so onset measurements have something to find. */
  leadingSilenceSeconds?: number;
}

const DC_BLOCK_HZ = 12;
const DEFAULT_MAX_RMS_DB = -14;

/**
 * Makes rendered channels deliverable: no DC, no clicks at either end, a chosen peak level
 * that never clips. Every generator ends here, so these guarantees hold catalog-wide.
 */
export function finishAudio(channels: Float32Array[], sampleRate: number, options: FinishOptions): PcmAudio {
  const fadeIn = samplesFor(options.fadeInSeconds ?? 0.002, sampleRate);
  const fadeOut = samplesFor(options.fadeOutSeconds ?? 0.01, sampleRate);
  let peak = 0;
  let energy = 0;
  let count = 0;
  for (const channel of channels) {
    onePoleHighpass(channel, sampleRate, DC_BLOCK_HZ);
    applyFades(channel, fadeIn, fadeOut);
    // Peak and energy in one pass: these buffers can be minutes long.
    for (let i = 0; i < channel.length; i++) {
      const x = channel[i]!;
      const magnitude = x < 0 ? -x : x;
      if (magnitude > peak) peak = magnitude;
      energy += x * x;
    }
    count += channel.length;
  }
  if (!(peak > 0) || !Number.isFinite(peak)) throw new Error('synthesized sound is silent or not finite');
  const rms = Math.sqrt(energy / count);
  const peakGain = 10 ** (Math.min(-0.5, options.peakDb) / 20) / peak;
  const loudnessGain = 10 ** ((options.maxRmsDb ?? DEFAULT_MAX_RMS_DB) / 20) / rms;
  const gain = Math.min(peakGain, loudnessGain);
  const lead = options.leadingSilenceSeconds ? Math.round(options.leadingSilenceSeconds * sampleRate) : 0;
  const finished = channels.map((channel) => {
    if (lead === 0) {
      scaleInPlace(channel, gain);
      return channel;
    }
    const out = new Float32Array(lead + channel.length);
    for (let i = 0; i < channel.length; i++) out[lead + i] = channel[i]! * gain;
    return out;
  });
  return { sampleRate, channels: finished };
}

export function durationOf(audio: PcmAudio): number {
  return (audio.channels[0]?.length ?? 0) / audio.sampleRate;
}
