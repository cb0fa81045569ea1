import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A secret generated once into the data folder (`signing-secret`, `csrf-secret`), so that what it
 * signs survives restarts and every process on the folder shares it. Made by the wiring, not by
 * the config parser, which only reads the environment.
 */
export function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, secret + '\n', { mode: 0o600 });
  try {
    // link() fails if another process got there first: then its secret wins and we read it.
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  return readFileSync(file, 'utf8').trim();
}
