/**
 * Agreement with `ffmpeg -af ebur128=peak=true`, the reference meter users will reproduce our
 * values with: within 0.1 LU and 0.2 dB (analysis.md). ffmpeg prints one decimal, so up to
 * 0.05 of each tolerance is its rounding.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { analyzeAudio } from '../../../src/audio/analyze/index.ts';
import type { PcmAudio } from '../../../src/audio/types.ts';
import { ffmpegEbur128, hasFfmpeg } from '../helpers/ffmpeg.ts';
import { variedSignals } from '../helpers/varied-signals.ts';
import { encodeWavFloat32 } from '../helpers/wav.ts';

const LOUDNESS_TOLERANCE_LU = 0.1;
const TRUE_PEAK_TOLERANCE_DB = 0.2;

if (!hasFfmpeg && process.env.CI === 'true') throw new Error('ffmpeg is required in CI for the agreement tests');
const skip = hasFfmpeg ? false : 'ffmpeg not found: agreement with ffmpeg not checked';

const dir = mkdtempSync(path.join(tmpdir(), 'analysis-ffmpeg-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * ffmpeg has no block in a sound under 400 ms and prints -70. Our rule measures such a sound as
 * one block over its own length, which equals ffmpeg's reading of the sound padded with silence
 * to 400 ms, scaled back by the length ratio.
 */
function paddedToOneBlock(audio: PcmAudio): { audio: PcmAudio; correctionDb: number } {
  const frames = audio.channels[0]!.length;
  const block = 4 * Math.round(audio.sampleRate / 10);
  if (frames >= block) return { audio, correctionDb: 0 };
  const channels = audio.channels.map((channel) => {
    const padded = new Float32Array(block);
    padded.set(channel);
    return padded;
  });
  return { audio: { sampleRate: audio.sampleRate, channels }, correctionDb: 10 * Math.log10(block / frames) };
}

variedSignals().forEach(({ name, audio }, index) => {
  test(`ffmpeg.agreement: ${name}`, { skip }, async (t) => {
    const reference = paddedToOneBlock(audio);
    const file = path.join(dir, `signal-${index}.wav`);
    writeFileSync(file, encodeWavFloat32(reference.audio));
    const theirs = await ffmpegEbur128(file);
    const ours = analyzeAudio(audio).loudness;
    assert.ok(ours.integrated_lufs !== null && ours.true_peak_db !== null);
    const expectedLufs = theirs.integratedLufs + reference.correctionDb;
    const loudnessDelta = ours.integrated_lufs - expectedLufs;
    const peakDelta = ours.true_peak_db - theirs.truePeakDb;
    const report =
      `ours I ${ours.integrated_lufs.toFixed(3)} TP ${ours.true_peak_db.toFixed(3)}; ` +
      `ffmpeg I ${expectedLufs.toFixed(3)} TP ${theirs.truePeakDb}`;
    t.diagnostic(`delta I ${loudnessDelta.toFixed(3)} LU, TP ${peakDelta.toFixed(3)} dB (${report})`);
    assert.ok(
      Math.abs(loudnessDelta) <= LOUDNESS_TOLERANCE_LU,
      `loudness off by ${loudnessDelta.toFixed(3)} LU: ${report}`,
    );
    assert.ok(Math.abs(peakDelta) <= TRUE_PEAK_TOLERANCE_DB, `true peak off by ${peakDelta.toFixed(3)} dB: ${report}`);
  });
});
