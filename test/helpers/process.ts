import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { backendOf } from './backend.ts';
import { checkAnswersOf, stopCheckingAnswersOf } from './openapi-answers.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/sound-catalog.js');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything written to standard error so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs `sound-catalog serve` as a real process and waits until it says where it listens.
 * `entry` is the script to run: the bin by default, or a build's main.js.
 */
export async function startServe(env: Record<string, string>, timeoutMs = 120_000, entry = BIN): Promise<ServeProcess> {
  const child = spawn(process.execPath, [entry, 'serve'], {
    env: { ...process.env, PORT: '0', ...(await backendOf(env)), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout!.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in time:\n${stderr}`));
    }, timeoutMs);
    const onEarlyExit = (code: number | null) => reject(new Error(`serve exited with ${code}:\n${stderr}`));
    child.on('exit', onEarlyExit);
    let started = false;
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /is listening on (http:\/\/\S+)/.exec(stderr);
      if (!match || started) return;
      started = true;
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      const url = match[1]!;
      child.once('exit', () => stopCheckingAnswersOf(url));
      // Every answer the test receives from it is checked against the document it serves.
      checkAnswersOf(url).then(
        () =>
          resolve({
            child,
            url,
            stderr: () => stderr,
            stop: () =>
              new Promise((done) => {
                if (child.exitCode !== null) return done(child.exitCode);
                child.once('exit', (code) => done(code));
                child.kill('SIGTERM');
              }),
          }),
        reject,
      );
    });
  });
}
