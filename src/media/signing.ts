import { createHmac, timingSafeEqual } from 'node:crypto';
import { SECRET_MIN_LENGTH } from '../secret-length.ts';
import { formatParams } from './format-params.ts';
import { HmacSha256 } from './hmac.ts';
import { LEGACY_SIGNATURE_LENGTH, legacyMacKeyOf, legacySignature } from './legacy-signature.ts';
import { extensionOf, renditionChoice, type RenditionChoice } from './rendition-choice.ts';

export type Disposition = 'stream' | 'download';

/** Signed URLs live one hour (API document, "Limits"). */
export const SIGNED_URL_TTL_SECONDS = 3600;

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
  d?: string;
  exp?: string;
  kid?: string;
  sig?: string;
  loudness?: string;
  trim?: string;
  account?: string;
  format?: string;
  sample_rate?: string;
  channels?: string;
  bit_depth?: string;
}

/** A signature: the 32 bytes of HMAC-SHA256 in base64url, unpadded. */
const SIGNATURE_LENGTH = 43;

/**
 * Signs and verifies media URLs (docs/signing.md, pinned by test/media/signing-vectors.test.ts):
 * `sig` is base64url(HMAC-SHA256(secret, the URL's path and query up to `&sig=`, less `d`)), so
 * whatever a URL says (sound, file extension, rendition, paying account, expiry, key id) is signed
 * as it is written. Every URL names the key id of the secret that signed it, so a new secret can
 * sign while an old one still verifies until its URLs expire. URLs of the formats before (HMAC
 * with `d` signed; legacy-signature.ts, 24 characters) verify until their own expiry.
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
      throw new Error(
        `each signing secret must be at least ${SECRET_MIN_LENGTH} characters ` +
          '(32 random bytes: openssl rand -base64 32)',
      );
    }
    this.keys = secrets.map((secret) => ({
      kid: keyIdOf(secret),
      mac: new HmacSha256(Buffer.from(secret, 'utf8')),
      legacyMacKey: legacyMacKeyOf(secret),
    }));
  }

  /**
   * The URL of one sound, or of a rendition of it: the rendition's parameters and the account
   * that pays for making it go into the URL, and so into what is signed, so a URL for one
   * rendition never serves another, nor charges another account. The catalog's own file costs
   * nothing to serve: its URL names no account, whether one is given or not.
   */
  sign(soundId: string, disposition: Disposition, choice: RenditionChoice = {}, accountId?: string): SignedMedia {
    const { kid, mac } = this.keys[0]!;
    const expiresAt = expiryFrom(this.clock());
    // The file name's extension is the format's, so a saved file opens as what it is.
    const path = `/media/${encodeURIComponent(soundId)}.${extensionOf(choice)}`;
    const rendition = renditionParams(choice, accountId);
    const sig = mac.sign(signedStringOf(path, rendition, expiresAt, kid));
    return {
      url: `${this.baseUrl()}${path}?${unsignedQueryOf(disposition, rendition, expiresAt, kid)}&sig=${sig}`,
      expiresAt,
    };
  }

  /** The service's public base URL, as signed URLs start with it (media/tags names a sound's URL with it). */
  publicBase(): string {
    return this.baseUrl();
  }

  /**
   * The stream and the download URL of one sound (the catalog's own file), with one expiry and
   * one signature: `d` is not signed, so the two URLs cost one HMAC.
   */
  signBoth(soundId: string): Record<Disposition, SignedMedia> {
    const { kid, mac } = this.keys[0]!;
    const expiresAt = expiryFrom(this.clock());
    const path = `/media/${encodeURIComponent(soundId)}.mp3`;
    const sig = mac.sign(signedStringOf(path, '', expiresAt, kid));
    const url = `${this.baseUrl()}${path}?d=`;
    const rest = `&exp=${expiresAt}&kid=${kid}&sig=${sig}`;
    return {
      stream: { url: `${url}stream${rest}`, expiresAt },
      download: { url: `${url}download${rest}`, expiresAt },
    };
  }

  /**
   * Whether a URL's parts are ones `sign` wrote. A parameter given twice arrives as an array and is
   * refused, and so is a value in another spelling than `sign` writes (`format=mp3`, `channels=01`).
   */
  verify(soundId: string, query: MediaQuery): Verdict {
    const { d, exp, kid, sig } = query;
    if ((d !== 'stream' && d !== 'download') || typeof exp !== 'string' || !/^\d{1,12}$/.test(exp)) return INVALID;
    if (typeof sig !== 'string' || soundId.includes('\n')) return INVALID;
    const key = this.keys.find((candidate) => candidate.kid === kid);
    const named = renditionOf(query);
    if (!key || named === null) return INVALID;
    const rendition = renditionParams(named.choice, named.accountId ?? undefined);
    if (givenParams(query, RENDITION_PARAMS) !== rendition) return INVALID;
    const path = `/media/${encodeURIComponent(soundId)}.${extensionOf(named.choice)}`;
    const unsigned = unsignedQueryOf(d, rendition, exp, key.kid);
    let expected: string[];
    if (sig.length === SIGNATURE_LENGTH) {
      expected = [key.mac.sign(signedStringOf(path, rendition, exp, key.kid))];
      // The release before signed `d` too: its URLs verify until their own expiry, at most an hour from now.
      if (Number(exp) <= expiryFrom(this.clock())) expected.push(key.mac.sign(`${path}?${unsigned}`));
    } else if (sig.length === LEGACY_SIGNATURE_LENGTH && Number(exp) <= expiryFrom(this.clock())) {
      expected = [legacySignature(key.legacyMacKey, d, [soundId], false, exp, rendition)];
    } else {
      return INVALID;
    }
    return this.judge(sig, expected, exp, { ...named, canonicalQuery: `${unsigned}&sig=${sig}` });
  }

  /**
   * The URL of a pack of sounds (packs/): the ids, the rendition of every file and its account,
   * signed like one sound's download URL; its path is not a sound's, so a pack URL never verifies
   * as a sound's nor a sound's as a pack's.
   */
  signPack(ids: string[], choice: RenditionChoice, accountId: string, options: PackOptions = {}): SignedMedia {
    const { kid, mac } = this.keys[0]!;
    const expiresAt = expiryFrom(this.clock());
    const unsigned = unsignedPackQueryOf(ids, packParams(choice, options, accountId), expiresAt, kid);
    const sig = mac.sign(`${PACK_PATH}?${unsigned}`);
    return { url: `${this.baseUrl()}${PACK_PATH}?${unsigned}&sig=${sig}`, expiresAt };
  }

  /** Whether a pack URL's parts are ones `signPack` wrote; the route compares its canonical query, as for a sound. */
  verifyPack(query: PackQuery): PackVerdict {
    const { ids, exp, kid, sig } = query;
    if (typeof ids !== 'string' || typeof exp !== 'string' || !/^\d{1,12}$/.test(exp)) return INVALID;
    if (typeof sig !== 'string') return INVALID;
    const list = ids.split(',');
    if (list.some((id) => id === '' || id.includes('\n'))) return INVALID;
    const key = this.keys.find((candidate) => candidate.kid === kid);
    const named = packOf(query);
    if (!key || named === null) return INVALID;
    const rendition = packParams(named.choice, named.options, named.accountId ?? undefined);
    if (givenParams(query, PACK_PARAMS) !== rendition) return INVALID;
    const unsigned = unsignedPackQueryOf(list, rendition, exp, key.kid);
    let expected: string[];
    if (sig.length === SIGNATURE_LENGTH) {
      expected = [key.mac.sign(`${PACK_PATH}?${unsigned}`)];
    } else if (sig.length === LEGACY_SIGNATURE_LENGTH && Number(exp) <= expiryFrom(this.clock())) {
      expected = [legacySignature(key.legacyMacKey, 'download', list, true, exp, rendition)];
    } else {
      return INVALID;
    }
    return this.judge(sig, expected, exp, { ids: list, ...named, canonicalQuery: `${unsigned}&sig=${sig}` });
  }

  /**
   * The verdict on a signature of the right length: compared in constant time with every signature
   * it may be (each one, whatever the others gave), then the expiry.
   */
  private judge<T extends object>(
    sig: string,
    expected: string[],
    exp: string,
    valid: T,
  ): (T & { ok: true; expiresAt: number }) | typeof INVALID | typeof EXPIRED {
    let matched = false;
    for (const candidate of expected) matched = sameSignature(sig, candidate) || matched;
    if (!matched) return INVALID;
    const expiresAt = Number(exp);
    if (expiresAt * 1000 <= this.clock()) return EXPIRED;
    return { ok: true, expiresAt, ...valid };
  }
}

const INVALID = { ok: false, reason: 'invalid' } as const;
const EXPIRED = { ok: false, reason: 'expired' } as const;

/** Two signatures compared in constant time. */
function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What a sound's URL signs: its path and its query up to the signature without `d`, which only
 * says whether the answer is an attachment, so one HMAC serves a sound's stream and download URL.
 */
function signedStringOf(path: string, rendition: string, expiresAt: number | string, kid: string): string {
  return `${path}?${rendition === '' ? '' : `${rendition}&`}exp=${expiresAt}&kid=${kid}`;
}

/** A media URL's query up to its signature, in its one form: what `sign` writes and what the media route accepts. */
function unsignedQueryOf(disposition: Disposition, rendition: string, expiresAt: number | string, kid: string): string {
  return `d=${disposition}${rendition === '' ? '' : `&${rendition}`}&exp=${expiresAt}&kid=${kid}`;
}

/**
 * The second a URL made now expires: rounded up, so that it lives at least the full hour the
 * answers' `expires_in` promises, even when made mid-second.
 */
function expiryFrom(now: number): number {
  return Math.ceil(now / 1000) + SIGNED_URL_TTL_SECONDS;
}

/** The rendition parameters of a URL, in the order `sign` writes them. */
const RENDITION_PARAMS = ['loudness', 'trim', 'format', 'sample_rate', 'channels', 'bit_depth', 'account'] as const;

/**
 * A rendition's URL parameters and the paying account, in one canonical form (empty for the
 * catalog's own file). Loudness is a whole LU (rendition-choice.ts rounds it before it gets here).
 */
function renditionParams(choice: RenditionChoice, accountId: string | undefined): string {
  const params = renditionParamList(choice);
  if (params.length === 0) return '';
  return [...params, accountParam(accountId)].join('&');
}

/** `account=ID`, or an error when there is no valid account to name. */
function accountParam(accountId: string | undefined): string {
  if (accountId === undefined || !ACCOUNT_ID.test(accountId)) {
    throw new Error('a rendition URL names the account that pays for making it');
  }
  return `account=${accountId}`;
}

/** A rendition's URL parameters, without the account. */
function renditionParamList(choice: RenditionChoice): string[] {
  const params: string[] = [];
  if (choice.loudness !== undefined) {
    if (!Number.isInteger(choice.loudness)) {
      throw new Error(`a rendition's loudness is a whole LU, not ${choice.loudness}`);
    }
    params.push(`loudness=${choice.loudness}`);
  }
  if (choice.trim === true) params.push('trim=true');
  if (choice.format !== undefined) params.push(`format=${choice.format}`);
  if (choice.sampleRate !== undefined) params.push(`sample_rate=${choice.sampleRate}`);
  if (choice.channels !== undefined) params.push(`channels=${choice.channels}`);
  if (choice.bitDepth !== undefined) params.push(`bit_depth=${choice.bitDepth}`);
  return params;
}

/**
 * A pack's parameters in their one form: the rendition's, then the pack's options, then the
 * account that pays, named when there is something to pay for (renditions or a sprite). A pack
 * without options has the form pack URLs had before them.
 */
function packParams(choice: RenditionChoice, options: PackOptions, accountId: string | undefined): string {
  const params = renditionParamList(choice);
  const paid = params.length > 0 || options.sprite === true;
  if (options.naming === 'ucs') params.push('naming=ucs');
  if (options.sprite === true) params.push('sprite=true');
  if (paid) params.push(accountParam(accountId));
  return params.join('&');
}

/** The parameters of `names` a URL was sent with, as written, in the signer's order: its canonical form when valid. */
function givenParams<Q extends object>(query: Q, names: ReadonlyArray<keyof Q & string>): string {
  return names
    .filter((name) => query[name] !== undefined)
    .map((name) => `${name}=${String(query[name])}`)
    .join('&');
}

/** What an account id may be in a URL: nothing that needs escaping, nor a line break. */
const ACCOUNT_ID = /^[\w-]{1,64}$/;

/**
 * The rendition and paying account a URL names, or null when a value is not one `sign` writes.
 * The format parameters go through the one schema of the REST query and the MCP arguments
 * (format-params.ts); defaults named in a URL (`format=mp3`) are then caught by the caller's
 * comparison with renditionParams.
 */
function renditionOf(query: MediaQuery): { choice: RenditionChoice; accountId: string | null } | null {
  const choice = choiceOf(query);
  if (choice === null) return null;
  return withAccount({ choice }, query.account, Object.keys(choice).length > 0);
}

/** The account a URL names, which it must when something is paid for and must not otherwise; null when wrong. */
function withAccount<T extends object>(
  named: T,
  account: unknown,
  paid: boolean,
): (T & { accountId: string | null }) | null {
  if (account === undefined) return paid ? null : { ...named, accountId: null };
  if (!paid || typeof account !== 'string' || !ACCOUNT_ID.test(account)) return null;
  return { ...named, accountId: account };
}

/** The pack's rendition, options and paying account a pack URL names, or null when a value is not one `signPack` writes. */
function packOf(query: PackQuery): { choice: RenditionChoice; options: PackOptions; accountId: string | null } | null {
  const { naming, sprite } = query;
  if ((naming !== undefined && naming !== 'ucs') || (sprite !== undefined && sprite !== 'true')) return null;
  const choice = choiceOf(query);
  if (choice === null) return null;
  const options: PackOptions = { ...(naming === 'ucs' && { naming }), ...(sprite === 'true' && { sprite: true }) };
  return withAccount({ choice, options }, query.account, Object.keys(choice).length > 0 || options.sprite === true);
}

/** The rendition a URL's parameters name, or null when a value is not one the signer writes. */
function choiceOf(query: MediaQuery): RenditionChoice | null {
  const { loudness, trim } = query;
  if (loudness !== undefined && (typeof loudness !== 'string' || !/^-\d{1,2}$/.test(loudness))) return null;
  if (trim !== undefined && trim !== 'true') return null;
  const output = formatParams.safeParse({
    format: query.format,
    sample_rate: query.sample_rate,
    channels: query.channels,
    bit_depth: query.bit_depth,
  });
  if (!output.success) return null;
  return renditionChoice(loudness === undefined ? undefined : Number(loudness), trim === 'true', output.data);
}

interface SigningKey {
  /** Named in every URL: which secret signed it. */
  kid: string;
  /** HMAC-SHA256 under the secret: signs and checks the URLs with this key id. */
  mac: HmacSha256;
  /** What the format before made its tags with (legacy-signature.ts). */
  legacyMacKey: string;
}

/** The key id URLs show: 8 base64url characters (48 bits) of an HMAC-SHA256 of a label under the secret. */
function keyIdOf(secret: string): string {
  return createHmac('sha256', secret).update('sound-catalog media URL key id').digest('base64url').slice(0, 8);
}

/** The one file name pack URLs carry. */
export const PACK_FILE = 'sound-pack.zip';
const PACK_PATH = `/media/packs/${PACK_FILE}`;

/** A pack URL's query parameters, as the pack route reads them. */
export type PackQuery = Omit<MediaQuery, 'd'> & { ids?: string; naming?: string; sprite?: string };

/**
 * What a pack holds beyond its files' rendition, as its URL says and signs it: UCS file names,
 * and an audio sprite (packs/sprite.ts). Only what differs from the default is set.
 */
export interface PackOptions {
  naming?: 'ucs';
  sprite?: boolean;
}

/** A pack URL's parameters after the ids, in the order `signPack` writes them. */
const PACK_PARAMS = [
  'loudness',
  'trim',
  'format',
  'sample_rate',
  'channels',
  'bit_depth',
  'naming',
  'sprite',
  'account',
] as const satisfies ReadonlyArray<keyof PackQuery>;

export type PackVerdict =
  | {
      ok: true;
      expiresAt: number;
      ids: string[];
      choice: RenditionChoice;
      options: PackOptions;
      accountId: string | null;
      canonicalQuery: string;
    }
  | { ok: false; reason: 'invalid' | 'expired' };

function unsignedPackQueryOf(ids: string[], rendition: string, expiresAt: number | string, kid: string): string {
  const names = ids.map(encodeURIComponent).join(',');
  return `ids=${names}${rendition === '' ? '' : `&${rendition}`}&exp=${expiresAt}&kid=${kid}`;
}
