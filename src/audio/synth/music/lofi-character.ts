import { onePoleHighpass, stateVariableFilter } from '../dsp/filters.ts';
import { saturateInPlace } from '../dsp/mix.ts';
import { addCrackle, whiteNoise } from '../dsp/noise.ts';
import { sineCycle } from '../dsp/oscillators.ts';
import type { Random } from '../random.ts';

export interface LofiSpec {
  cutoffHz: number;
  /** Slow pitch drift of a worn tape or warped record, as delay swing in milliseconds. */
  wowMs: number;
  /** Fast pitch waver, in milliseconds of delay swing. */
  flutterMs: number;
  cracklesPerSecond: number;
  hissLevel: number;
}

export function pickLofiSpec(rng: Random): LofiSpec {
  return {
    cutoffHz: rng.range(2600, 5000),
    wowMs: rng.range(0.6, 1.6),
    flutterMs: rng.range(0.05, 0.15),
    cracklesPerSecond: rng.range(3, 9),
    hissLevel: rng.range(0.004, 0.01),
  };
}

/**
 * What makes a loop sound lo-fi: a wavering pitch (a modulated delay), dull highs, soft
 * saturation, vinyl crackle and hiss. The wow and flutter rates are whole cycles per loop, and
 * the delay reads around the loop's end, so the result still loops seamlessly. `inputGain`
 * brings the mix to unit peak on the way in, saving a pass.
 */
export function applyLofiCharacter(
  channels: Float32Array[],
  sampleRate: number,
  rng: Random,
  spec: LofiSpec,
  inputGain: number,
): void {
  const length = channels[0]?.length ?? 0;
  const loopSeconds = length / sampleRate;
  const wowCycles = Math.max(1, Math.round(loopSeconds * rng.range(0.4, 0.8)));
  const flutterCycles = Math.max(1, Math.round(loopSeconds * rng.range(5, 8)));
  const wowDepth = (spec.wowMs / 1000) * sampleRate;
  const flutterDepth = (spec.flutterMs / 1000) * sampleRate;
  const baseDelay = wowDepth + flutterDepth + 2;
  const delays = new Float32Array(Math.ceil(length / DELAY_BLOCK) + 1);
  for (let block = 0; block < delays.length; block++) {
    const position = (block * DELAY_BLOCK) / length;
    delays[block] =
      baseDelay + wowDepth * sineCycle(position * wowCycles) + flutterDepth * sineCycle(position * flutterCycles);
  }
  const hissOffset = Math.round(sampleRate * 0.5);
  // White is fine for hiss here: the low-pass below gives it the dull colour of tape.
  const hiss = whiteNoise(length + hissOffset, rng);
  channels.forEach((channel, side) => {
    const dry = Float32Array.from(channel);
    for (let i = 0; i < length; i++) {
      let read = i - delays[(i / DELAY_BLOCK) | 0]!;
      if (read < 0) read += length;
      const index = Math.floor(read);
      const fraction = read - index;
      const next = index + 1 === length ? 0 : index + 1;
      channel[i] =
        (dry[index]! + (dry[next]! - dry[index]!) * fraction) * inputGain +
        hiss[i + side * hissOffset]! * spec.hissLevel;
    }
    stateVariableFilter(channel, sampleRate, 'lowpass', 0.7, spec.cutoffHz);
    onePoleHighpass(channel, sampleRate, 40);
    saturateInPlace(channel, 1.5);
    addCrackle(channel, sampleRate, rng, spec.cracklesPerSecond, 0.12);
  });
}

/** The tape's speed changes slowly: one delay value per block is plenty. */
const DELAY_BLOCK = 16;
