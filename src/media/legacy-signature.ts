import { createHmac, hash } from 'node:crypto';

/**
 * The signature format of the release before HMAC-SHA256 (docs/signing.md, "The formats before"):
 * SHA3-512 over a MAC key derived from the secret and a line-separated message, the first 24
 * characters of its base64url signing the stream URL and the next 24 the download URL.
 *
 * Verified only, never made: nothing here signs, so a URL handed out before the upgrade plays until
 * its own `exp`, and signing.ts refuses one whose `exp` lies further ahead than a URL signed now
 * would expire. Delete this file and its uses in signing.ts in the next release: an hour after the
 * last instance of the earlier release stopped, no URL it accepts is left.
 */

/** Its signatures' length in characters (18 bytes in base64url); HMAC-SHA256's are 43. */
export const LEGACY_SIGNATURE_LENGTH = 24;

/** The MAC key: an HMAC-SHA256 of a fixed label under the secret, in base64url. */
export function legacyMacKeyOf(secret: string): string {
  return createHmac('sha256', secret).update('sound-catalog media URL MAC key').digest('base64url');
}

/**
 * The signature of a sound's URL (`pack` false) or a pack's: the message is the id, the expiry
 * and, for a rendition, its parameters, one a line; a pack's starts with a `pack` line, then an id a line.
 */
export function legacySignature(
  macKey: string,
  disposition: 'stream' | 'download',
  ids: string[],
  pack: boolean,
  expiresAt: string,
  rendition: string,
): string {
  const message = pack
    ? `pack\n${ids.join('\n')}\n${expiresAt}\n${rendition}`
    : `${ids[0]}\n${expiresAt}${rendition === '' ? '' : `\n${rendition}`}`;
  const tag = hash('sha3-512', `${macKey}\n${message}`, 'base64url');
  const start = disposition === 'stream' ? 0 : LEGACY_SIGNATURE_LENGTH;
  return tag.slice(start, start + LEGACY_SIGNATURE_LENGTH);
}
