/**
 * An API key's format: `sc_` + 43 base62 characters of randomness (256 bits) + a 6-character
 * checksum. accounts/api-key.ts issues and checks keys in it; whatever repeats a client's text
 * (error messages, log lines) finds keys in it here, below every layer that reports errors.
 */
export const KEY_PREFIX = 'sc_';
export const KEY_SECRET_LENGTH = 43;
export const KEY_CHECKSUM_LENGTH = 6;
/** Characters of the secret that the dashboard shows after the prefix: enough to tell which key it was. */
const SHOWN = 8;
export const KEY_DISPLAY_LENGTH = KEY_PREFIX.length + SHOWN;

/** A key inside other text, also with its `_` percent-encoded as a path may carry it. */
const KEY_IN_TEXT = new RegExp(
  `(sc(?:_|%5[Ff])[0-9A-Za-z]{${SHOWN}})[0-9A-Za-z]{${KEY_SECRET_LENGTH + KEY_CHECKSUM_LENGTH - SHOWN}}`,
  'g',
);

/**
 * The text with every key-shaped part cut to its display prefix: for what repeats a client's
 * input, error messages and log lines.
 */
export function withoutApiKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1…');
}
