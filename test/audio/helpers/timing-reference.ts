/**
 * A deliberately plain, whole-buffer reading of analysis.md's timing rule, to check the
 * streaming implementation against. Window layout as documented in src/audio/analyze/timing.ts:
 * 1 ms segments from floor(k * rate / 1000); window k = segments k..k+9, clipped at the end of
 * the sound; a sound under 10 ms is one window.
 */
import type { PcmAudio, Timing } from '../../../src/audio/types.ts';

export function referenceTiming({ sampleRate, channels }: PcmAudio): Timing {
  const frames = channels[0]?.length ?? 0;
  const none = { onset_ms: null, peak_ms: null, tail_ms: null };
  if (frames === 0) return none;
  const boundary = (k: number) => Math.min(frames, Math.floor((k * sampleRate) / 1000));
  let segments = 0;
  while (boundary(segments) < frames) segments++;
  const windows = Math.max(1, segments - 9);
  const level = (n: number) => Math.max(...channels.map((c) => Math.abs(c[n]!)));
  const energy: number[] = [];
  for (let k = 0; k < windows; k++) {
    const [start, end] = [boundary(k), boundary(k + 10)];
    let sum = 0;
    for (let n = start; n < end; n++) for (const c of channels) sum += c[n]! ** 2;
    energy.push(10 * Math.log10(sum / ((end - start) * channels.length)));
  }
  const peakDb = Math.max(...energy);
  if (!(peakDb >= -70)) return none;
  const sorted = [...energy].sort((a, b) => a - b);
  const floorDb = sorted[Math.max(1, Math.ceil(0.05 * sorted.length)) - 1]!;
  const threshold = Math.min(Math.max(peakDb - 40, floorDb + 12, -70), peakDb - 12);
  const amplitude = 10 ** (threshold / 20);
  const first = energy.findIndex((e) => e >= threshold);
  let last = energy.length - 1;
  while (energy[last]! < threshold) last--;
  let onset = boundary(first);
  while (level(onset) < amplitude) onset++;
  let tail = boundary(last + 10) - 1;
  while (level(tail) < amplitude) tail--;
  let peak = 0;
  for (let n = 1; n < frames; n++) if (level(n) > level(peak)) peak = n;
  const ms = (n: number) => Math.round((n * 1e6) / sampleRate) / 1000;
  return { onset_ms: ms(onset), peak_ms: ms(peak), tail_ms: ms(tail + 1) };
}
