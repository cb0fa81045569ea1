import * as crypto from 'node:crypto';
import { KEY_CHECKSUM_LENGTH, KEY_DISPLAY_LENGTH, KEY_PREFIX, KEY_SECRET_LENGTH } from '../api-key-format.ts';

/**
 * Keys are issued and checked here, in their format (api-key-format.ts). The checksum lets a
 * mistyped or made-up key be refused without touching the database.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_SECRET_LENGTH + KEY_CHECKSUM_LENGTH}}$`);

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  let secret = '';
  while (secret.length < KEY_SECRET_LENGTH) {
    // Rejection sampling keeps every base62 character equally likely.
    for (const byte of crypto.randomBytes(64)) {
      if (byte < 248 && secret.length < KEY_SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  const key = KEY_PREFIX + secret + checksum(secret);
  return { key, prefix: displayPrefix(key), hash: hashApiKey(key) };
}

/** True when the text has the shape and checksum of a key we could have issued. */
export function isWellFormedApiKey(text: string): boolean {
  if (!KEY_PATTERN.test(text)) return false;
  const secret = text.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_SECRET_LENGTH);
  return text.slice(KEY_PREFIX.length + KEY_SECRET_LENGTH) === checksum(secret);
}

export function hashApiKey(key: string): string {
  return sha256(key).toString('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, KEY_DISPLAY_LENGTH);
}

function checksum(secret: string): string {
  const digest = sha256(secret);
  let value = digest.readUIntBE(0, 6);
  let text = '';
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    text += BASE62[value % 62];
    value = Math.floor(value / 62);
  }
  return text;
}

/**
 * Every authenticated request hashes its key twice (checksum, then lookup). The one-shot
 * crypto.hash does both faster than createHash, which builds a Hash object per call.
 */
const sha256: (text: string) => Buffer =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'buffer')
    : (text) => crypto.createHash('sha256').update(text).digest();
