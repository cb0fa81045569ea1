import type { PcmAudio } from '../../types.ts';
import { applyFades } from './envelopes.ts';
import { onePoleHighpass } from './filters.ts';
import { peakOf, samplesFor, scaleInPlace } from './mix.ts';

export interface FinishOptions {
  /** Peak level to normalize to, in dBFS (negative). */
  peakDb: number;
  fadeInSeconds?: number;
  fadeOutSeconds?: number;
  /** Silence put before the sound, so onset measurements have something to find. */
  leadingSilenceSeconds?: number;
}

const DC_BLOCK_HZ = 12;

/**
 * Makes rendered channels deliverable: no DC, no clicks at either end, a chosen peak level
 * that never clips. Every generator ends here, so these guarantees hold catalog-wide.
 */
export function finishAudio(channels: Float32Array[], sampleRate: number, options: FinishOptions): PcmAudio {
  const fadeIn = samplesFor(options.fadeInSeconds ?? 0.002, sampleRate);
  const fadeOut = samplesFor(options.fadeOutSeconds ?? 0.01, sampleRate);
  let peak = 0;
  for (const channel of channels) {
    onePoleHighpass(channel, sampleRate, DC_BLOCK_HZ);
    applyFades(channel, fadeIn, fadeOut);
    peak = Math.max(peak, peakOf(channel));
  }
  if (!(peak > 0) || !Number.isFinite(peak)) throw new Error('synthesized sound is silent or not finite');
  const gain = Math.pow(10, Math.min(-0.5, options.peakDb) / 20) / peak;
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
