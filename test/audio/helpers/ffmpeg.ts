/** Runs ffmpeg's EBU R128 meter, the reference the spec names, and reads its summary. */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const FFMPEG = 'ffmpeg';

export function ffmpegAvailable(): boolean {
  return spawnSync(FFMPEG, ['-version'], { stdio: 'ignore' }).status === 0;
}

export interface FfmpegLoudness {
  /** "I:" of the summary; ffmpeg prints -70.0 when no block passed (and for sounds under 400 ms). */
  integratedLufs: number;
  /** "Peak:" under "True peak" of the summary, in dBFS (dBTP). */
  truePeakDb: number;
}

/** The exact command of analysis.md: ffmpeg -nostats -i FILE -af ebur128=peak=true -f null - */
export async function ffmpegEbur128(file: string): Promise<FfmpegLoudness> {
  const { stderr } = await run(FFMPEG, ['-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
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
