import { createHmac, hash } from 'node:crypto';

/** SHA-256's block: an HMAC key is padded (or first hashed) to this many bytes. */
const BLOCK = 64;

/**
 * HMAC-SHA256 (RFC 2104) under one key, written in base64url without padding: the bytes of
 * node:crypto's `createHmac('sha256', key)`, built from its one-shot SHA-256 with the key's two
 * padded blocks worked out once. A URL signer makes one HMAC per sound of every answer; createHmac
 * builds an object and a native context for each, and the two one-shot hashes build neither.
 *
 * The inner hash is of the inner block followed by the message's UTF-8, handed to node:crypto as
 * one string, which it encodes as UTF-8: that is the block's own bytes only when each is below
 * 0x80, which holds for a key of ASCII characters (every secret the settings write). For any other
 * key each message goes through createHmac.
 */
export class HmacSha256 {
  /** The key XOR 0x36, as text; null when a byte of it is not ASCII. */
  private readonly innerBlock: string | null;
  /** The key XOR 0x5c, then room for the inner digest: what the outer hash reads. */
  private readonly outer = Buffer.alloc(BLOCK + 32);

  constructor(private readonly key: Buffer) {
    const padded = Buffer.alloc(BLOCK);
    (key.length > BLOCK ? hash('sha256', key, 'buffer') : key).copy(padded);
    const inner = Buffer.alloc(BLOCK);
    for (let i = 0; i < BLOCK; i++) {
      inner[i] = padded[i]! ^ 0x36;
      this.outer[i] = padded[i]! ^ 0x5c;
    }
    this.innerBlock = inner.every((byte) => byte < 0x80) ? inner.toString('binary') : null;
  }

  /** base64url(HMAC-SHA256(key, the message's UTF-8)): 43 characters. */
  sign(message: string): string {
    if (this.innerBlock === null) return createHmac('sha256', this.key).update(message).digest('base64url');
    this.outer.write(hash('sha256', this.innerBlock + message, 'binary'), BLOCK, 'binary');
    return hash('sha256', this.outer, 'base64url');
  }
}
