import * as crypto from 'node:crypto';

/**
 * Key format: `sc_` + 43 base62 characters of randomness (256 bits) + a 6-character checksum.
 * The checksum lets a mistyped or made-up key be refused without touching the database.
 */
const SERVICE_PREFIX = 'sc_';
const SECRET_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const DISPLAY_PREFIX_LENGTH = SERVICE_PREFIX.length + 8;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${SERVICE_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    // Rejection sampling keeps every base62 character equally likely.
    for (const byte of crypto.randomBytes(64)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  const key = SERVICE_PREFIX + secret + checksum(secret);
  return { key, prefix: displayPrefix(key), hash: hashApiKey(key) };
}

/** True when the text has the shape and checksum of a key we could have issued. */
export function isWellFormedApiKey(text: string): boolean {
  if (!KEY_PATTERN.test(text)) return false;
  const secret = text.slice(SERVICE_PREFIX.length, SERVICE_PREFIX.length + SECRET_LENGTH);
  return text.slice(SERVICE_PREFIX.length + SECRET_LENGTH) === checksum(secret);
}

export function hashApiKey(key: string): string {
  return sha256(key).toString('hex');
}

/** A key inside other text, also with its `_` percent-encoded as a path may carry it. */
const KEY_IN_TEXT = new RegExp(`(sc(?:_|%5[Ff])[0-9A-Za-z]{8})[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH - 8}}`, 'g');

/**
 * The text with every key-shaped part cut to its display prefix (what the dashboard shows, enough
 * to tell which key it was): for what repeats a client's input, error messages and log lines.
 */
export function withoutApiKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1…');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

function checksum(secret: string): string {
  const digest = sha256(secret);
  let value = digest.readUIntBE(0, 6);
  let text = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    text += BASE62[value % 62];
    value = Math.floor(value / 62);
  }
  return text;
}

/**
 * Every authenticated request hashes its key twice (checksum, then lookup). The one-shot
 * crypto.hash does both faster than createHash, which builds a Hash object per call.
 */
const sha256: (text: string) => Buffer = typeof crypto.hash === 'function'
  ? (text) => crypto.hash('sha256', text, 'buffer')
  : (text) => crypto.createHash('sha256').update(text).digest();
