import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { BIT_DEPTHS, OUTPUT_FORMATS, outputProblems, SAMPLE_RATE_RANGE } from '../audio/encode/output-format.ts';
import { extensionOf, type RenditionChoice } from './renditions.ts';

export type Disposition = 'stream' | 'download';

/** Signed URLs live one hour (API document, "Limits"). */
export const SIGNED_URL_TTL_SECONDS = 3600;
/**
 * The shortest secret accepted: 32 random bytes written in base64url take 43 characters (in base64,
 * 44; in hex, 64). config.ts asks it of each secret in SIGNING_SECRET; the signer asks it again,
 * so "secret," adds no empty key whoever builds one.
 */
export const SECRET_MIN_LENGTH = 43;

export interface SignedMedia {
  url: string;
  expiresAt: number;
}

/**
 * A URL's parts judged: for a valid one, the rendition it names, the account that pays for making
 * it (renditions only), and its query in the one form `sign` writes, which the media route
 * compares with the query it was sent, so a URL with parameters added, repeated, reordered or
 * escaped differently is refused rather than served under a new cache key.
 */
export type Verdict =
  | { ok: true; expiresAt: number; choice: RenditionChoice; accountId: string | null; canonicalQuery: string }
  | { ok: false; reason: 'invalid' | 'expired' };

/** The query parameters the media route reads; any other in a URL makes it not canonical. */
export interface MediaQuery {
  d?: string; exp?: string; kid?: string; sig?: string; loudness?: string; trim?: string; account?: string;
  format?: string; sample_rate?: string; channels?: string; bit_depth?: string;
}

/** The length of a signature: 18 bytes (144 bits) of a tag, in base64url. */
const SIGNATURE_LENGTH = 24;

/**
 * One signature format (docs/architecture.md, "Signed media URLs"; pinned by test/media/signing-vectors.test.ts).
 * A URL is signed with SHA3-512 over a MAC key and the message (sound id, expiry and, for a
 * rendition, its parameters and paying account): SHA-3 has no length extension, so a key put in
 * front of the message makes a MAC without HMAC's two nested hashes (the idea behind NIST
 * SP 800-185's KMAC). The first 18 bytes of the tag sign the stream URL, the next 18 the download
 * URL, so a list that shows both URLs of each sound hashes once per sound. The two halves are
 * disjoint bits of one hash and tell nothing of each other: a stream URL cannot be turned into a
 * download URL. Why not HMAC-SHA256: one keyed SHA-3 costs less than an HMAC, which hashes twice,
 * and signing is a large part of a search page's CPU time (the figures: docs/architecture.md).
 * The MAC key and the key id are each derived from the secret by HMAC under a label of its own, so
 * the key id a URL shows tells nothing of the secret nor of the MAC key. Every URL names the id of
 * the secret that signed it, so a new secret can sign while the old one still verifies until its
 * URLs expire.
 */
export class MediaSigner {
  private readonly keys: SigningKey[];

  constructor(
    secrets: string[],
    private readonly baseUrl: () => string,
    private readonly clock: () => number,
  ) {
    if (secrets.length === 0) throw new Error('at least one signing secret is needed');
    // An empty or short secret (from "a,b" with a stray comma) would let anyone sign URLs.
    if (secrets.some((secret) => secret.length < SECRET_MIN_LENGTH)) {
      throw new Error(`each signing secret must be at least ${SECRET_MIN_LENGTH} characters (32 random bytes: openssl rand -base64 32)`);
    }
    this.keys = secrets.map((secret) => ({ kid: keyIdOf(secret), macKey: macKeyOf(secret) }));
  }

  /**
   * The URL of one sound, or of a rendition of it: the rendition's parameters and the account
   * that pays for making it go into the URL and into the signed message, so a URL for one
   * rendition never serves another, nor charges another account. The catalog's own file costs
   * nothing to serve: its URL names no account, whether one is given or not.
   */
  sign(soundId: string, disposition: Disposition, choice: RenditionChoice = {}, accountId?: string): SignedMedia {
    const rendition = renditionParams(choice, accountId);
    if (rendition === '') {
      const both = this.signBoth(soundId);
      return disposition === 'stream' ? both.stream : both.download;
    }
    const expiresAt = expiryFrom(this.clock());
    const { kid, macKey } = this.keys[0]!;
    const sig = halfOf(disposition, tag(macKey, messageOf(soundId, expiresAt, rendition)));
    // The file name's extension is the format's, so a saved file opens as what it is.
    const url = `${this.baseUrl()}/media/${encodeURIComponent(soundId)}.${extensionOf(choice)}?${queryOf(disposition, rendition, expiresAt, kid, sig)}`;
    return { url, expiresAt };
  }

  /** The stream and the download URL of one sound, from one hash. */
  signBoth(soundId: string): Record<Disposition, SignedMedia> {
    const expiresAt = expiryFrom(this.clock());
    const { kid, macKey } = this.keys[0]!;
    const both = tag(macKey, messageOf(soundId, expiresAt, ''));
    // kid and the base64url signatures need no escaping; the id is escaped. The query is queryOf's form, written out for speed.
    const base = `${this.baseUrl()}/media/${encodeURIComponent(soundId)}.mp3?d=`;
    const rest = `&exp=${expiresAt}&kid=${kid}&sig=`;
    return {
      stream: { url: `${base}stream${rest}${halfOf('stream', both)}`, expiresAt },
      download: { url: `${base}download${rest}${halfOf('download', both)}`, expiresAt },
    };
  }

  /**
   * Whether a URL's parts are ones `sign` wrote. A parameter given twice arrives as an array and is
   * refused. An id holding the messages' separator could make one message look like another.
   */
  verify(soundId: string, query: MediaQuery): Verdict {
    const { d, exp, kid, sig } = query;
    if ((d !== 'stream' && d !== 'download') || typeof exp !== 'string' || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'invalid' };
    if (typeof sig !== 'string' || sig === '' || soundId.includes('\n')) return { ok: false, reason: 'invalid' };
    const key = this.keys.find((candidate) => candidate.kid === kid);
    if (!key) return { ok: false, reason: 'invalid' };
    const named = renditionOf(query);
    if (named === null) return { ok: false, reason: 'invalid' };
    const rendition = renditionParams(named.choice, named.accountId ?? undefined);
    const expected = Buffer.from(halfOf(d, tag(key.macKey, messageOf(soundId, exp, rendition))));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    const expiresAt = Number(exp);
    if (expiresAt * 1000 <= this.clock()) return { ok: false, reason: 'expired' };
    return { ok: true, expiresAt, ...named, canonicalQuery: queryOf(d, rendition, exp, key.kid, sig) };
  }

  /**
   * The URL of a pack of sounds (packs/): the ids, the rendition of every file and its account,
   * signed like one sound's download URL but over a message of its own (packMessageOf), so a pack
   * URL never verifies as a sound's nor a sound's as a pack's.
   */
  signPack(ids: string[], choice: RenditionChoice, accountId: string): SignedMedia {
    const rendition = renditionParams(choice, accountId);
    const expiresAt = expiryFrom(this.clock());
    const { kid, macKey } = this.keys[0]!;
    const sig = halfOf('download', tag(macKey, packMessageOf(ids, expiresAt, rendition)));
    return { url: `${this.baseUrl()}/media/packs/${PACK_FILE}?${packQueryOf(ids, rendition, expiresAt, kid, sig)}`, expiresAt };
  }

  /** Whether a pack URL's parts are ones `signPack` wrote; its canonical query is compared by the route, as for one sound. */
  verifyPack(query: PackQuery): PackVerdict {
    const { ids, exp, kid, sig } = query;
    if (typeof ids !== 'string' || typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string') return { ok: false, reason: 'invalid' };
    const list = ids.split(',');
    if (list.some((id) => id === '' || id.includes('\n'))) return { ok: false, reason: 'invalid' };
    const key = this.keys.find((candidate) => candidate.kid === kid);
    const named = renditionOf(query);
    if (!key || named === null) return { ok: false, reason: 'invalid' };
    const rendition = renditionParams(named.choice, named.accountId ?? undefined);
    const expected = Buffer.from(halfOf('download', tag(key.macKey, packMessageOf(list, exp, rendition))));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    const expiresAt = Number(exp);
    if (expiresAt * 1000 <= this.clock()) return { ok: false, reason: 'expired' };
    return { ok: true, expiresAt, ids: list, ...named, canonicalQuery: packQueryOf(list, rendition, exp, key.kid, sig) };
  }
}

/** A media URL's query in its one form: what `sign` writes and what the media route accepts. */
function queryOf(disposition: Disposition, rendition: string, expiresAt: number | string, kid: string, sig: string): string {
  return `d=${disposition}${rendition === '' ? '' : `&${rendition}`}&exp=${expiresAt}&kid=${kid}&sig=${sig}`;
}

/**
 * The second a URL made now expires: rounded up, so that it lives at least the full hour the
 * answers' `expires_in` promises, even when made mid-second.
 */
function expiryFrom(now: number): number {
  return Math.ceil(now / 1000) + SIGNED_URL_TTL_SECONDS;
}

/**
 * A rendition's URL parameters and the paying account, in one canonical form (empty for the
 * catalog's own file). Loudness is a whole LU (renditions.ts rounds it before it gets here).
 */
function renditionParams(choice: RenditionChoice, accountId: string | undefined): string {
  const params: string[] = [];
  if (choice.loudness !== undefined) {
    if (!Number.isInteger(choice.loudness)) throw new Error(`a rendition's loudness is a whole LU, not ${choice.loudness}`);
    params.push(`loudness=${choice.loudness}`);
  }
  if (choice.trim === true) params.push('trim=true');
  if (choice.format !== undefined) params.push(`format=${choice.format}`);
  if (choice.sampleRate !== undefined) params.push(`sample_rate=${choice.sampleRate}`);
  if (choice.channels !== undefined) params.push(`channels=${choice.channels}`);
  if (choice.bitDepth !== undefined) params.push(`bit_depth=${choice.bitDepth}`);
  if (params.length === 0) return '';
  if (accountId === undefined || !ACCOUNT_ID.test(accountId)) throw new Error('a rendition URL names the account that pays for making it');
  params.push(`account=${accountId}`);
  return params.join('&');
}

/** What an account id may be in a URL: nothing that needs escaping, nor the message separator. */
const ACCOUNT_ID = /^[\w-]{1,64}$/;

/** The rendition and paying account a URL names, or null when its parameters are not in the form `sign` writes. */
function renditionOf(query: MediaQuery): { choice: RenditionChoice; accountId: string | null } | null {
  const choice: RenditionChoice = {};
  if (query.loudness !== undefined) {
    if (typeof query.loudness !== 'string' || !/^-\d{1,2}$/.test(query.loudness)) return null;
    choice.loudness = Number(query.loudness);
  }
  if (query.trim !== undefined) {
    if (query.trim !== 'true') return null;
    choice.trim = true;
  }
  if (!readOutput(query, choice)) return null;
  const isRendition = Object.keys(choice).length > 0;
  if (query.account === undefined) return isRendition ? null : { choice, accountId: null };
  if (!isRendition || typeof query.account !== 'string' || !ACCOUNT_ID.test(query.account)) return null;
  return { choice, accountId: query.account };
}

/**
 * The format parameters of a URL into `choice`, as `sign` writes them (defaults absent: no
 * `format=mp3`, no `bit_depth=16`); false for anything else, or a combination the encoders
 * cannot make.
 */
function readOutput(query: MediaQuery, choice: RenditionChoice): boolean {
  const { format, sample_rate: rate, channels, bit_depth: depth } = query;
  if (format !== undefined) {
    if (typeof format !== 'string' || format === 'mp3' || !(OUTPUT_FORMATS as readonly string[]).includes(format)) return false;
    choice.format = format as RenditionChoice['format'];
  }
  if (rate !== undefined) {
    if (typeof rate !== 'string' || !/^[1-9]\d{3,5}$/.test(rate)) return false;
    const value = Number(rate);
    if (value < SAMPLE_RATE_RANGE.min || value > SAMPLE_RATE_RANGE.max) return false;
    choice.sampleRate = value;
  }
  if (channels !== undefined) {
    if (channels !== '1' && channels !== '2') return false;
    choice.channels = Number(channels) as 1 | 2;
  }
  if (depth !== undefined) {
    if (depth !== String(BIT_DEPTHS[1])) return false;
    choice.bitDepth = 24;
  }
  const output = { format: choice.format ?? 'mp3', sampleRate: choice.sampleRate, channels: choice.channels, bitDepth: choice.bitDepth } as const;
  return outputProblems(output).length === 0 && !(choice.format === 'opus' && choice.sampleRate !== undefined);
}

interface SigningKey {
  /** Named in every URL: which secret signed it. */
  kid: string;
  /** What tags are made with, derived from the secret. */
  macKey: string;
}

/** What a URL's signature covers: sound id, expiry and, for a rendition, its parameters and paying account. Signing and verifying both use it. */
function messageOf(soundId: string, expiresAt: number | string, rendition: string): string {
  return rendition === '' ? `${soundId}\n${expiresAt}` : `${soundId}\n${expiresAt}\n${rendition}`;
}

/** SHA3-512 over the MAC key and the message, in base64url (86 characters). */
function tag(macKey: string, message: string): string {
  return hash('sha3-512', `${macKey}\n${message}`, 'base64url');
}

/** The part of a tag that signs URLs of this disposition: its first 18 bytes, or the next 18. */
function halfOf(disposition: Disposition, both: string): string {
  return disposition === 'stream' ? both.slice(0, SIGNATURE_LENGTH) : both.slice(SIGNATURE_LENGTH, 2 * SIGNATURE_LENGTH);
}

/** The MAC key: an HMAC-SHA256 of a fixed label under the secret, in base64url (43 characters). */
function macKeyOf(secret: string): string {
  return createHmac('sha256', secret).update('sound-catalog media URL MAC key').digest('base64url');
}

/** The key id URLs show: 8 base64url characters (48 bits) of an HMAC-SHA256 of another label under the secret. */
function keyIdOf(secret: string): string {
  return createHmac('sha256', secret).update('sound-catalog media URL key id').digest('base64url').slice(0, 8);
}

/** The one file name pack URLs carry. */
export const PACK_FILE = 'sound-pack.zip';

/** A pack URL's query parameters, as the pack route reads them. */
export type PackQuery = Omit<MediaQuery, 'd'> & { ids?: string };

export type PackVerdict =
  | { ok: true; expiresAt: number; ids: string[]; choice: RenditionChoice; accountId: string | null; canonicalQuery: string }
  | { ok: false; reason: 'invalid' | 'expired' };

/**
 * What a pack URL's signature covers: a `pack` line, one line per id, the expiry and the rendition
 * line (empty for the catalog's files). A sound's message has at most three lines, so the two
 * can never be the same text.
 */
function packMessageOf(ids: string[], expiresAt: number | string, rendition: string): string {
  return `pack\n${ids.join('\n')}\n${expiresAt}\n${rendition}`;
}

function packQueryOf(ids: string[], rendition: string, expiresAt: number | string, kid: string, sig: string): string {
  return `ids=${ids.map(encodeURIComponent).join(',')}${rendition === '' ? '' : `&${rendition}`}&exp=${expiresAt}&kid=${kid}&sig=${sig}`;
}
