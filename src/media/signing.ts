import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RenditionChoice } from './renditions.ts';

export type Disposition = 'stream' | 'download';

/** Signed URLs live one hour (API document, "Limits"). */
export const SIGNED_URL_TTL_SECONDS = 3600;
/** As config.ts asks of SIGNING_SECRET; here for each secret of the list, so "secret," adds no empty key. */
const SECRET_MIN_LENGTH = 16;

export interface SignedMedia {
  url: string;
  expiresAt: number;
}

export type Verdict = { ok: true; expiresAt: number; choice: RenditionChoice } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * HMAC-SHA256 over sound id and expiry: the first 16 bytes of it sign the stream URL, the last 16
 * the download URL, so a list that shows both URLs of each sound computes one HMAC per sound, not
 * two (a search page of 20 sounds spent a quarter of its time in HMAC). Each half is a 128-bit
 * MAC that tells nothing of the other, so a stream URL cannot be turned into a download URL.
 * Every URL names the id of the secret that signed it, so a new secret can sign while the old
 * one still verifies until its URLs expire.
 */
export class MediaSigner {
  private readonly keys: Array<{ kid: string; secret: Buffer }>;

  constructor(
    secrets: string[],
    private readonly baseUrl: () => string,
    private readonly clock: () => number,
  ) {
    if (secrets.length === 0) throw new Error('at least one signing secret is needed');
    // An empty or short secret (from "a,b" with a stray comma) would let anyone sign URLs.
    if (secrets.some((secret) => secret.length < SECRET_MIN_LENGTH)) {
      throw new Error(`each signing secret in SIGNING_SECRET must be at least ${SECRET_MIN_LENGTH} characters`);
    }
    // Buffers: createHmac takes a Buffer key faster than a string one (~20%, measured in process).
    this.keys = secrets.map((secret) => ({ kid: keyIdOf(secret), secret: Buffer.from(secret) }));
  }

  /**
   * The URL of one sound, or of a rendition of it: the rendition's parameters go into the URL
   * and into the signed message, so a URL for one rendition never serves another.
   */
  sign(soundId: string, disposition: Disposition, choice: RenditionChoice = {}): SignedMedia {
    const rendition = renditionParams(choice);
    if (rendition === '') {
      const both = this.signBoth(soundId);
      return disposition === 'stream' ? both.stream : both.download;
    }
    const expiresAt = expiryFrom(this.clock());
    const { kid, secret } = this.keys[0]!;
    const mac = hmac(secret, `${soundId}\n${expiresAt}\n${rendition}`);
    const sig = halfFor(disposition, mac);
    const url = `${this.baseUrl()}/media/${encodeURIComponent(soundId)}.mp3?d=${disposition}&${rendition}&exp=${expiresAt}&kid=${kid}&sig=${sig}`;
    return { url, expiresAt };
  }

  /** The stream and the download URL of one sound, from one HMAC. */
  signBoth(soundId: string): Record<Disposition, SignedMedia> {
    const expiresAt = expiryFrom(this.clock());
    const { kid, secret } = this.keys[0]!;
    const mac = hmac(secret, `${soundId}\n${expiresAt}`);
    // kid and the base64url signatures need no escaping; the id is escaped.
    const base = `${this.baseUrl()}/media/${encodeURIComponent(soundId)}.mp3?d=`;
    const rest = `&exp=${expiresAt}&kid=${kid}&sig=`;
    return {
      stream: { url: `${base}stream${rest}${mac.subarray(0, 16).toString('base64url')}`, expiresAt },
      download: { url: `${base}download${rest}${mac.subarray(16).toString('base64url')}`, expiresAt },
    };
  }

  /**
   * Whether a URL's parts are ones `sign` wrote. A parameter given twice arrives as an array and is
   * refused. An id holding the messages' separator could make one message look like another.
   */
  verify(soundId: string, query: { d?: string; exp?: string; kid?: string; sig?: string; loudness?: string; trim?: string }): Verdict {
    const { d, exp, kid, sig } = query;
    if ((d !== 'stream' && d !== 'download') || typeof exp !== 'string' || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'invalid' };
    if (typeof sig !== 'string' || sig === '' || soundId.includes('\n')) return { ok: false, reason: 'invalid' };
    const key = this.keys.find((candidate) => candidate.kid === kid);
    if (!key) return { ok: false, reason: 'invalid' };
    const choice = renditionOf(query);
    if (choice === null) return { ok: false, reason: 'invalid' };
    const rendition = renditionParams(choice);
    const expected = Buffer.from(rendition === ''
      ? expectedSignature(key.secret, soundId, d, exp, sig.length)
      : halfFor(d, hmac(key.secret, `${soundId}\n${exp}\n${rendition}`)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    const expiresAt = Number(exp);
    if (expiresAt * 1000 <= this.clock()) return { ok: false, reason: 'expired' };
    return { ok: true, expiresAt, choice };
  }
}

/**
 * The second a URL made now expires: rounded up, so that it lives at least the full hour the
 * answers' `expires_in` promises, even when made mid-second.
 */
function expiryFrom(now: number): number {
  return Math.ceil(now / 1000) + SIGNED_URL_TTL_SECONDS;
}

/** A rendition's URL parameters, in one canonical form (empty for the catalog's own file). */
function renditionParams(choice: RenditionChoice): string {
  const params: string[] = [];
  if (choice.loudness !== undefined) params.push(`loudness=${choice.loudness.toFixed(1)}`);
  if (choice.trim === true) params.push('trim=true');
  return params.join('&');
}

/** The rendition a URL names, or null when its parameters are not in the form `sign` writes. */
function renditionOf(query: { loudness?: string; trim?: string }): RenditionChoice | null {
  const choice: RenditionChoice = {};
  if (query.loudness !== undefined) {
    if (typeof query.loudness !== 'string' || !/^-\d{1,2}\.\d$/.test(query.loudness)) return null;
    choice.loudness = Number(query.loudness);
  }
  if (query.trim !== undefined) {
    if (query.trim !== 'true') return null;
    choice.trim = true;
  }
  return choice;
}

function hmac(secret: Buffer, message: string): Buffer {
  return createHmac('sha256', secret).update(message).digest();
}

/**
 * The signature this URL should carry. A 43-character one is of the form signed before both URLs
 * shared one HMAC (the whole HMAC of id, disposition and expiry): still verified, so that URLs
 * handed out before an upgrade work until they expire, an hour at most.
 */
function expectedSignature(secret: Buffer, soundId: string, disposition: Disposition, exp: string, length: number): string {
  if (length === 43) return hmac(secret, `${soundId}\n${disposition}\n${exp}`).toString('base64url');
  return halfFor(disposition, hmac(secret, `${soundId}\n${exp}`));
}

/** The half of an HMAC that signs URLs of this disposition. */
function halfFor(disposition: Disposition, mac: Buffer): string {
  return (disposition === 'stream' ? mac.subarray(0, 16) : mac.subarray(16)).toString('base64url');
}

function keyIdOf(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url').slice(0, 8);
}
