import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type Disposition = 'stream' | 'download';

/** Signed URLs live one hour (API document, "Limits"). */
export const SIGNED_URL_TTL_SECONDS = 3600;

export interface SignedMedia {
  url: string;
  expiresAt: number;
}

export type Verdict = { ok: true; expiresAt: number } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * HMAC-SHA256 over sound id, disposition and expiry. Every URL names the id of the secret that
 * signed it, so a new secret can sign while the old one still verifies until its URLs expire.
 */
export class MediaSigner {
  private readonly keys: Array<{ kid: string; secret: string }>;
  /** URLs signed during the current second: a list answer signs the same few sounds again and again. */
  private recent = new Map<string, string>();
  private recentSecond = 0;

  constructor(
    secrets: string[],
    private readonly baseUrl: () => string,
    private readonly clock: () => number,
  ) {
    if (secrets.length === 0) throw new Error('at least one signing secret is needed');
    this.keys = secrets.map((secret) => ({ kid: keyIdOf(secret), secret }));
  }

  sign(soundId: string, disposition: Disposition): SignedMedia {
    const second = Math.floor(this.clock() / 1000);
    const expiresAt = second + SIGNED_URL_TTL_SECONDS;
    if (second !== this.recentSecond) {
      this.recent = new Map();
      this.recentSecond = second;
    }
    const cacheKey = `${disposition}:${soundId}`;
    let url = this.recent.get(cacheKey);
    if (url === undefined) {
      const { kid, secret } = this.keys[0]!;
      const signature = hmac(secret, soundId, disposition, expiresAt);
      // kid and the base64url signature need no escaping; the id is escaped.
      url = `${this.baseUrl()}/media/${encodeURIComponent(soundId)}.mp3?d=${disposition}&exp=${expiresAt}&kid=${kid}&sig=${signature}`;
      this.recent.set(cacheKey, url);
    }
    return { url, expiresAt };
  }

  verify(soundId: string, query: { d?: string; exp?: string; kid?: string; sig?: string }): Verdict {
    const { d, exp, kid, sig } = query;
    if ((d !== 'stream' && d !== 'download') || !exp || !/^\d{1,12}$/.test(exp) || !sig) return { ok: false, reason: 'invalid' };
    const key = this.keys.find((candidate) => candidate.kid === kid);
    if (!key) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(hmac(key.secret, soundId, d, Number(exp)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    const expiresAt = Number(exp);
    if (expiresAt * 1000 <= this.clock()) return { ok: false, reason: 'expired' };
    return { ok: true, expiresAt };
  }
}

function hmac(secret: string, soundId: string, disposition: string, expiresAt: number): string {
  return createHmac('sha256', secret).update(`${soundId}\n${disposition}\n${expiresAt}`).digest('base64url');
}

function keyIdOf(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url').slice(0, 8);
}
