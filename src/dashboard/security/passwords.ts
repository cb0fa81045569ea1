import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import argon2 from 'argon2';
import { HashingGate } from './hashing-gate.ts';

/**
 * New password hashes are argon2id at OWASP's minimum (19 MiB of memory, 2 passes, 1 lane), in
 * the PHC string format the `argon2` package writes (`$argon2id$v=19$m=19456,p=1,t=2$salt$hash`),
 * so each hash names its own cost. Hashes made before are `scrypt$N$r$p$salt$hash`: they still
 * verify, and `needsUpgrade` tells the sign-in to store a new argon2id hash in their place.
 */
const ARGON2_COST = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * Each hash holds 19 MiB while it runs: at most this many run at once in this process, and at
 * most `HASH_QUEUE` wait for a turn, each for at most `HASH_WAIT_MS`; past that the form answers
 * 503 (busy) instead of letting a crowd of sign-ins take the process's memory.
 */
export const HASH_CONCURRENCY = 4;
export const HASH_QUEUE = 32;
export const HASH_WAIT_MS = 5_000;
export const hashingGate = new HashingGate(HASH_CONCURRENCY, HASH_QUEUE, HASH_WAIT_MS);

/** How many passwords this process has hashed and checked: tests read these to count real work. */
export const passwordWork = { hashes: 0, verifications: 0 };

export function hashPassword(password: string): Promise<string> {
  return hashingGate.run(() => {
    passwordWork.hashes += 1;
    return argon2.hash(password.normalize('NFKC'), ARGON2_COST);
  });
}

/** False for a wrong password and for anything that is not one of our hashes. */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return hashingGate.run(async () => {
    passwordWork.verifications += 1;
    if (stored.startsWith('$argon2')) return argon2.verify(stored, password.normalize('NFKC')).catch(() => false);
    return verifyScrypt(password, stored);
  });
}

/** True for a hash in an older format or at a lower cost: the next correct sign-in replaces it. */
export function needsUpgrade(stored: string): boolean {
  if (!stored.startsWith('$argon2id$')) return true;
  try {
    return argon2.needsRehash(stored, ARGON2_COST);
  } catch {
    return true;
  }
}

function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return Promise.resolve(false);
  const expected = Buffer.from(key, 'base64url');
  const options: ScryptOptions = { N: Number(n), r: Number(r), p: Number(p) };
  // scrypt needs 128 * N * r bytes; allow twice that, so any cost we ever stored still verifies.
  const maxmem = 256 * Number(n) * Number(r) + 1024 * 1024;
  return new Promise((resolve) => {
    scrypt(
      password.normalize('NFKC'),
      Buffer.from(salt, 'base64url'),
      expected.length,
      { ...options, maxmem },
      (error, actual) => {
        resolve(!error && timingSafeEqual(actual, expected));
      },
    );
  });
}

/**
 * A real hash of a random password, checked when an email has no account (or no password), so
 * a sign-in takes as long whether or not the email exists.
 */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= argon2.hash(randomBytes(16).toString('hex'), ARGON2_COST).catch((error: unknown) => {
    decoy = null;
    throw error;
  });
  return decoy;
}
