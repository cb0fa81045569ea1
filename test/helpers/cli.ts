import { spawn } from 'node:child_process';
import path from 'node:path';
import { backendOf } from './backend.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/sound-catalog.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON object --json prints. */
  json: any;
}

/** Runs the real command line (the bin, or another `entry` such as a build's main.js) in a child process. */
export async function runCli(args: string[], env: Record<string, string>, entry = BIN): Promise<CliResult> {
  const backend = await backendOf(env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      env: { ...process.env, ...backend, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        // not JSON: the caller checks stdout itself
      }
      resolve({ status, stdout, stderr, json });
    });
  });
}
