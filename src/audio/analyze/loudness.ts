/**
 * Integrated loudness per ITU-R BS.1770-4 / EBU R128, fed chunk by chunk.
 *
 * The K-weighted power is summed per 100 ms step; a gating block is four consecutive steps
 * (400 ms, 75 % overlap), so memory is one number per 100 ms whatever the length.
 */
import { channelWeights } from './channel-weights.ts';
import { GrowableFloat64 } from './growable.ts';
import { KWeightingFilter } from './kweighting.ts';

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const STEPS_PER_BLOCK = 4;

export function loudnessOfPower(power: number): number {
  return -0.691 + 10 * Math.log10(power);
}

function powerOfLoudness(lufs: number): number {
  return 10 ** ((lufs + 0.691) / 10);
}

export class LoudnessMeter {
  /** Samples per 100 ms step, rounded as libebur128 does for rates not divisible by 10. */
  private readonly stepLength: number;
  private readonly filters: KWeightingFilter[];
  private readonly weights: Float64Array;
  /** Per-channel running sums of squares for the current step. */
  private readonly stepSums: Float64Array;
  private stepFill = 0;
  /** Weighted power sums of the last completed steps, oldest first (for the sliding block). */
  private readonly recentSteps: number[] = [];
  private readonly blockPowers = new GrowableFloat64();
  /** Weighted sum of squares over the whole sound, for sounds shorter than one block. */
  private totalWeighted = 0;
  private totalFrames = 0;

  constructor(sampleRate: number, channelCount: number) {
    this.stepLength = Math.max(1, Math.round(sampleRate / 10));
    this.filters = Array.from({ length: channelCount }, () => new KWeightingFilter(sampleRate));
    this.weights = channelWeights(channelCount);
    this.stepSums = new Float64Array(channelCount);
  }

  push(channels: readonly Float32Array[], frames: number): void {
    let offset = 0;
    while (offset < frames) {
      const run = Math.min(frames - offset, this.stepLength - this.stepFill);
      for (let c = 0; c < this.filters.length; c++) {
        this.stepSums[c] = this.filters[c]!.accumulateSquares(channels[c]!, offset, offset + run, this.stepSums[c]!);
      }
      offset += run;
      this.stepFill += run;
      if (this.stepFill === this.stepLength) this.closeStep();
    }
    this.totalFrames += frames;
  }

  private weightedStepSum(): number {
    let sum = 0;
    for (let c = 0; c < this.weights.length; c++) sum += this.weights[c]! * this.stepSums[c]!;
    return sum;
  }

  private closeStep(): void {
    const stepSum = this.weightedStepSum();
    this.totalWeighted += stepSum;
    this.stepSums.fill(0);
    this.stepFill = 0;
    this.recentSteps.push(stepSum);
    if (this.recentSteps.length > STEPS_PER_BLOCK) this.recentSteps.shift();
    if (this.recentSteps.length === STEPS_PER_BLOCK) {
      let blockSum = 0;
      for (const s of this.recentSteps) blockSum += s;
      this.blockPowers.push(blockSum / (STEPS_PER_BLOCK * this.stepLength));
    }
  }

  /** Integrated loudness in LUFS, or null when nothing passes the absolute gate (silence). */
  finish(): number | null {
    if (this.totalFrames === 0) return null;
    if (this.blockPowers.length === 0) {
      // Shorter than one block: the whole sound is the one block, gated the same way.
      const power = (this.totalWeighted + this.weightedStepSum()) / this.totalFrames;
      return gatedLoudness(Float64Array.of(power));
    }
    return gatedLoudness(this.blockPowers.view());
  }
}

/** Absolute gate, then the relative gate 10 LU under the mean of what passed it. */
export function gatedLoudness(blockPowers: Float64Array): number | null {
  const absoluteGate = powerOfLoudness(ABSOLUTE_GATE_LUFS);
  let sum = 0;
  let count = 0;
  for (const p of blockPowers) {
    if (p > absoluteGate) {
      sum += p;
      count++;
    }
  }
  if (count === 0) return null;
  const relativeGate = (sum / count) * 10 ** (RELATIVE_GATE_LU / 10);
  const gate = Math.max(absoluteGate, relativeGate);
  let gatedSum = 0;
  let gatedCount = 0;
  for (const p of blockPowers) {
    if (p > gate) {
      gatedSum += p;
      gatedCount++;
    }
  }
  return loudnessOfPower(gatedSum / gatedCount);
}
