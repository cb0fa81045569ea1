import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { HmacSha256 } from '../../src/media/hmac.ts';

const reference = (key: Buffer, message: string) => createHmac('sha256', key).update(message).digest('base64url');

// Keys of ASCII text (the path of two one-shot hashes) and of any bytes (createHmac's), shorter and
// longer than SHA-256's 64-byte block; messages of any UTF-16, lone surrogates included.
const keys = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)), maxLength: 100 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.uint8Array({ maxLength: 100 }).map((bytes) => Buffer.from(bytes)),
);
const messages = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: fc.constantFrom('/', '?', '&', '=', 'a', '0', '\u00e9'), maxLength: 300 }),
);

test('hmac.rfc2104: the same signature as createHmac for any key and message, each key signing many', () => {
  fc.assert(
    fc.property(keys, fc.array(messages, { minLength: 1, maxLength: 5 }), (secret, texts) => {
      const key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
      const mac = new HmacSha256(key);
      for (const text of texts) assert.equal(mac.sign(text), reference(key, text));
    }),
    { numRuns: 2000 },
  );
});

test('hmac.rfc4231: the RFC 4231 test cases 1, 2 and 6 (a key longer than a block)', () => {
  const cases = [
    [Buffer.alloc(20, 0x0b), 'Hi There', 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    [
      Buffer.from('Jefe'),
      'what do ya want for nothing?',
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [
      Buffer.alloc(131, 0xaa),
      'Test Using Larger Than Block-Size Key - Hash Key First',
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
  ] as const;
  for (const [key, message, hex] of cases) {
    assert.equal(new HmacSha256(key).sign(message), Buffer.from(hex, 'hex').toString('base64url'));
  }
});
