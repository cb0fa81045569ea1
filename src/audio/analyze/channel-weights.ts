/**
 * BS.1770 channel weights by channel count, for the WAV/SMPTE channel order of PcmAudio:
 * 1.0 for front channels, 1.41 for surrounds, 0 for LFE (excluded from loudness).
 */
const SURROUND = 1.41;
const LFE = 0;

const WEIGHTS_BY_COUNT: Record<number, readonly number[]> = {
  1: [1],
  2: [1, 1],
  3: [1, 1, 1], // L R C
  4: [1, 1, SURROUND, SURROUND], // quad: L R Ls Rs
  5: [1, 1, 1, SURROUND, SURROUND], // 5.0: L R C Ls Rs
  6: [1, 1, 1, LFE, SURROUND, SURROUND], // 5.1: L R C LFE Ls Rs
  7: [1, 1, 1, LFE, SURROUND, SURROUND, SURROUND], // 6.1: L R C LFE Cs Ls Rs
  8: [1, 1, 1, LFE, SURROUND, SURROUND, SURROUND, SURROUND], // 7.1: L R C LFE Lb Rb Ls Rs
};

/** Layouts we do not know are weighted as all-front, which is what a mono-per-channel meter does. */
export function channelWeights(channelCount: number): Float64Array {
  const known = WEIGHTS_BY_COUNT[channelCount];
  return known ? Float64Array.from(known) : new Float64Array(channelCount).fill(1);
}
