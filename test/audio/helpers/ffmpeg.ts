import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * ffmpeg is the reference the decoder, the encoder and the loudness meter are measured against in
 * tests (never used at run time). Missing ffmpeg skips those tests locally, but fails them in CI.
 */
export const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const required = process.env.CI === 'true';

/** Options for a test that needs ffmpeg. */
export const needsFfmpeg = hasFfmpeg || required ? {} : { skip: 'ffmpeg is not installed (required when CI=true)' };

function ensureFfmpeg(): void {
  if (!hasFfmpeg) throw new Error('ffmpeg is not installed; it is required for these tests when CI=true');
}

/** Runs ffmpeg on `input` (written to a temporary file named with `inputExtension`); returns its output file. */
export function ffmpegConvert(
  input: Uint8Array,
  inputExtension: string,
  args: string[],
  outputExtension: string,
): Uint8Array {
  ensureFfmpeg();
  const dir = mkdtempSync(join(tmpdir(), 'audio-test-'));
  try {
    const inPath = join(dir, `in.${inputExtension}`);
    const outPath = join(dir, `out.${outputExtension}`);
    writeFileSync(inPath, input);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', inPath, ...args, outPath], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return new Uint8Array(readFileSync(outPath));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `ffmpeg -i FILE -f f32le -` deinterleaved: the reference decode. */
export function ffmpegDecode(
  input: Uint8Array,
  inputExtension: string,
  channelCount: number,
  extraArgs: string[] = [],
): Float32Array[] {
  ensureFfmpeg();
  const dir = mkdtempSync(join(tmpdir(), 'audio-test-'));
  try {
    const inPath = join(dir, `in.${inputExtension}`);
    writeFileSync(inPath, input);
    const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', inPath, ...extraArgs, '-f', 'f32le', '-'], {
      maxBuffer: 1 << 30,
    });
    const interleaved = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
    const frames = interleaved.length / channelCount;
    return Array.from({ length: channelCount }, (_, c) =>
      Float32Array.from({ length: frames }, (_, i) => interleaved[i * channelCount + c]!),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What ffprobe says about the first audio stream (e.g. the "encoder" tag ffmpeg sets only when the LAME tag CRC is
 * valid).
 */
export function ffprobeStreamTag(input: Uint8Array, extension: string, tag: string): string {
  ensureFfmpeg();
  const dir = mkdtempSync(join(tmpdir(), 'audio-test-'));
  try {
    const path = join(dir, `in.${extension}`);
    writeFileSync(path, input);
    return execFileSync('ffprobe', ['-v', 'error', '-show_entries', `stream_tags=${tag}`, '-of', 'csv=p=0', path])
      .toString()
      .trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FfmpegLoudness {
  /** "I:" of the summary; ffmpeg prints -70.0 when no block passed (and for sounds under 400 ms). */
  integratedLufs: number;
  /** "Peak:" under "True peak" of the summary, in dBFS (dBTP). */
  truePeakDb: number;
}

/** The exact command of analysis.md: ffmpeg -nostats -i FILE -af ebur128=peak=true -f null - */
export async function ffmpegEbur128(file: string): Promise<FfmpegLoudness> {
  const { stderr } = await promisify(execFile)(
    'ffmpeg',
    ['-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  return {
    integratedLufs: parseDecibels(/I:\s+(\S+) LUFS/.exec(summary)?.[1], file),
    truePeakDb: parseDecibels(/Peak:\s+(\S+) dBFS/.exec(summary)?.[1], file),
  };
}

function parseDecibels(text: string | undefined, file: string): number {
  if (text === undefined) throw new Error(`no ebur128 summary for ${file}`);
  if (text === '-inf') return -Infinity;
  return Number(text);
}
