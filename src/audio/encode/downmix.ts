/**
 * More than two channels to stereo for MP3, with the ITU-R BS.775 coefficients that `ffmpeg -ac 2`
 * uses for float audio, so a user can reproduce the result:
 *
 *   L' = L + 0.7071 C + 0.7071 Ls + 0.7071 Lb + 0.5 Cs
 *   R' = R + 0.7071 C + 0.7071 Rs + 0.7071 Rb + 0.5 Cs
 *
 * LFE is dropped. Not normalised (ffmpeg normalises only for integer output): a normalised 5.1
 * downmix would be 7.7 dB quieter than its front channels, and material loud in every channel at
 * once is rare; MP3 keeps values above full scale, so nothing is clipped in the file itself.
 * Layouts by channel count, in WAV order: 3 = L R C, 4 = L R Ls Rs, 5 = L R C Ls Rs,
 * 6 = 5.1 (L R C LFE Ls Rs), 7 = 6.1 (L R C LFE Cs Ls Rs), 8 = 7.1 (L R C LFE Lb Rb Ls Rs).
 * Other counts have no standard layout: even channels go left, odd right, averaged.
 */
const SIDE = Math.SQRT1_2;

type Gains = readonly [left: number, right: number];

const LAYOUTS: Record<number, readonly Gains[]> = {
  3: [
    [1, 0],
    [0, 1],
    [SIDE, SIDE],
  ],
  4: [
    [1, 0],
    [0, 1],
    [SIDE, 0],
    [0, SIDE],
  ],
  5: [
    [1, 0],
    [0, 1],
    [SIDE, SIDE],
    [SIDE, 0],
    [0, SIDE],
  ],
  6: [
    [1, 0],
    [0, 1],
    [SIDE, SIDE],
    [0, 0],
    [SIDE, 0],
    [0, SIDE],
  ],
  7: [
    [1, 0],
    [0, 1],
    [SIDE, SIDE],
    [0, 0],
    [0.5, 0.5],
    [SIDE, 0],
    [0, SIDE],
  ],
  8: [
    [1, 0],
    [0, 1],
    [SIDE, SIDE],
    [0, 0],
    [SIDE, 0],
    [0, SIDE],
    [SIDE, 0],
    [0, SIDE],
  ],
};

/** Per input channel, its gain into left and right. */
export function stereoDownmixMatrix(channelCount: number): Gains[] {
  const known = LAYOUTS[channelCount];
  if (known) return [...known];
  const perSide = 1 / Math.ceil(channelCount / 2);
  return Array.from({ length: channelCount }, (_, c): Gains => (c % 2 ? [0, perSide] : [perSide, 0]));
}

export function downmixToStereo(
  channels: readonly Float32Array[],
  matrix: readonly Gains[],
): [Float32Array, Float32Array] {
  const length = channels[0]?.length ?? 0;
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  channels.forEach((channel, c) => {
    const [l, r] = matrix[c]!;
    for (let i = 0; i < length; i++) {
      const sample = channel[i]!;
      left[i] = left[i]! + l * sample;
      right[i] = right[i]! + r * sample;
    }
  });
  return [left, right];
}
