/**
 * Peak memory of one rendition by the sound's length:
 *   node --import tsx bench/renditions-memory.ts [MINUTES...]   (default 1 10 60)
 * For each length a stereo 48 kHz MP3 source is written (test/audio/helpers/long-mp3.ts), then
 * one loudness rendition (-20 LUFS, the limiter working on the source's bursts) is made in a child
 * process of its own, so its peak RSS is that rendition's alone; the child reports it with its
 * wall-clock and CPU time. The first row, 0 minutes, is the child loading the code and rendering
 * nothing: what any process starts with.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderRendition } from '../src/audio/render.ts';
import { writeLongMp3 } from '../test/audio/helpers/long-mp3.ts';

interface ChildReport {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  lufs: number | null;
  truePeak: number | null;
  duration: number;
}

if (process.argv[2] === '--child') {
  const [sourcePath, outputPath] = process.argv.slice(3);
  const started = performance.now();
  const measurements = sourcePath ? await renderRendition(sourcePath, outputPath!, { loudness: -20 }) : null;
  const cpu = process.cpuUsage();
  const report: ChildReport = {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    lufs: measurements?.loudness.integrated_lufs ?? null,
    truePeak: measurements?.loudness.true_peak_db ?? null,
    duration: measurements?.duration ?? 0,
  };
  console.log(JSON.stringify(report));
} else {
  const lengths = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1, 10, 60];
  const folder = mkdtempSync(path.join(tmpdir(), 'bench-renditions-memory-'));
  const self = fileURLToPath(import.meta.url);
  try {
    console.log('| sound | peak RSS | wall time | CPU time | rendition |\n|---|---|---|---|---|');
    for (const minutes of [0, ...lengths]) {
      const args = ['--import', 'tsx', self, '--child'];
      if (minutes > 0) {
        const sourcePath = path.join(folder, `${minutes}.mp3`);
        await writeLongMp3(sourcePath, minutes);
        args.push(sourcePath, path.join(folder, `${minutes}-rendition.mp3`));
      }
      const report = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as ChildReport;
      const made =
        minutes > 0
          ? `${report.duration.toFixed(0)} s at ${report.lufs} LUFS, ${report.truePeak} dBTP`
          : 'none (code loaded)';
      console.log(
        `| ${minutes} min | ${report.peakRssMb.toFixed(0)} MB | ` +
          `${report.seconds.toFixed(1)} s | ${report.cpuSeconds.toFixed(1)} s | ${made} |`,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
