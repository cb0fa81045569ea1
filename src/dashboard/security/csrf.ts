import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * CSRF tokens are an HMAC of what the browser's cookie binds the request to (its session, or
 * before sign-in its visitor id). Nothing is stored; a token planted from another site is
 * useless because the attacker cannot compute it for the victim's cookie.
 */
export class CsrfTokens {
  private readonly secret: Buffer;

  constructor(csrfSecret: string) {
    // Derived for this one use, should the secret ever be given to something else too.
    this.secret = createHmac('sha256', csrfSecret).update('sound-catalog dashboard csrf').digest();
  }

  tokenFor(binding: string): string {
    return createHmac('sha256', this.secret).update(binding).digest('base64url');
  }

  isValid(binding: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.tokenFor(binding));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
