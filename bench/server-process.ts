/**
 * The server as the benchmarks run it: the compiled CLI in a child process, started with
 * package.json's start command, its logs in a file, its resident memory read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * How long a benchmark lets a new server settle before it measures: a catalog past 20,000 described
 * sounds builds its similar-sounds cells after it starts listening, between requests (about a
 * minute at 1,000,000), and a service that has run for a while has them. BENCH_SETTLE_SECONDS
 * replaces it.
 */
export function settleSeconds(sounds: number): number {
  return Number(process.env.BENCH_SETTLE_SECONDS ?? (sounds > 20_000 ? Math.ceil(sounds / 10_000) : 0));
}

/**
 * docs/operations.md's rule for --max-old-space-size: 64 MB and 0.45 MB per 1,000 sounds, at least 128, in
 * steps of 64. Without a bound V8 lets the old generation grow to several times what is live
 * between full collections under load (100,000 sounds: 359 MB peak over 40 s, 207 MB with 128).
 */
export function heapBoundMb(sounds: number): number {
  return Math.max(128, Math.ceil((64 + (0.45 * sounds) / 1000) / 64) * 64);
}

/**
 * docs/operations.md's heap flags: the old generation's bound above, and semi-spaces of 16 MB.
 * Node.js 20 and 22 take 16 MB under that bound; Node.js 24 sizes them by the machine's memory
 * instead (64 MB on 24 GiB), and its young generation then holds about 70 MB more resident at
 * 1,000,000 sounds (docs/performance.md).
 */
export function heapArguments(sounds: number, heapMb = heapBoundMb(sounds)): string[] {
  return [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=16'];
}

/**
 * The node arguments of package.json's start script (`node [FLAGS...] bin/sound-catalog.js serve`), without `serve`.
 */
export function startArguments(): string[] {
  const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = packageJson.scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`the start script does not run node: ${packageJson.scripts.start}`);
  return args.filter((arg) => arg !== 'serve').map((arg) => (arg.startsWith('bin/') ? path.join(root, arg) : arg));
}

/** Starts `node ARGS` and waits for the address it logs (up to 10 minutes: a big catalog's index takes a while). */
export async function startChild(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; logFile: string }> {
  // Output goes to a file, not a pipe that this busy process would drain late.
  const logFile = path.join(tmpdir(), `sound-catalog-bench-${process.pid}-${Date.now()}.log`);
  const log = await open(logFile, 'w');
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', log.fd, log.fd] });
  await log.close();
  for (let waited = 0; waited < 600_000; waited += 100) {
    const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(await readFile(logFile, 'utf8'));
    if (match) return { child, url: match[1]!, logFile };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not start: ${await readFile(logFile, 'utf8')}`);
}

/** The process's resident memory (VmRSS), in MB. */
export async function residentMemoryMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}
