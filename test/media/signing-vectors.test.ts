import assert from 'node:assert/strict';
import { createHmac, hash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { MediaSigner } from '../../src/media/signing.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

/**
 * Fixed vectors of the one signature format (docs/architecture.md, "Signed media URLs"). The
 * expected URLs were computed outside the project with OpenSSL 3.0's command line:
 *   mac = HMAC-SHA256(secret, "sound-catalog media URL MAC key"), base64url
 *   kid = first 8 characters of base64url(HMAC-SHA256(secret, "sound-catalog media URL key id"))
 *   tag = base64url(SHA3-512(mac "\n" id "\n" exp ["\n" rendition])): characters 0-23 sign the
 *         stream URL, 24-47 the download URL
 * A change to any of them breaks every URL in flight, so it must be a deliberate one.
 */
const SECRET = 'q9LzY0m3tYb8Hn2aQ5xW7cR1vK4pE6sJ0dF8gU2hI3o=';
const NOW = Date.parse('2026-06-15T12:00:00Z');
const BASE = 'https://sounds.example.org';
const ID = 'abcdef0123456789';

const VECTORS = [
  { disposition: 'stream', choice: {}, url: `${BASE}/media/${ID}.mp3?d=stream&exp=1781528400&kid=0IKiDN6R&sig=Qcc6EhlofMUXzOy2CTaHlACQ` },
  { disposition: 'download', choice: {}, url: `${BASE}/media/${ID}.mp3?d=download&exp=1781528400&kid=0IKiDN6R&sig=W2JdQV4JE99QNlK_QkLw7RJY` },
  {
    disposition: 'stream', choice: { loudness: -16, trim: true },
    url: `${BASE}/media/${ID}.mp3?d=stream&loudness=-16&trim=true&account=acct-42&exp=1781528400&kid=0IKiDN6R&sig=ybT0KPhcn9gOY3fs5WQJuG92`,
  },
  {
    disposition: 'download', choice: { loudness: -16, trim: true },
    url: `${BASE}/media/${ID}.mp3?d=download&loudness=-16&trim=true&account=acct-42&exp=1781528400&kid=0IKiDN6R&sig=TClXWhehQs81k1s2dxLRUpqF`,
  },
  {
    disposition: 'stream', choice: { loudness: -14 },
    url: `${BASE}/media/${ID}.mp3?d=stream&loudness=-14&account=acct-42&exp=1781528400&kid=0IKiDN6R&sig=ZY6qf62fHQownu7H_n-mxxdN`,
  },
] as const;

const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('media: signing vectors', () => {
  const signer = new MediaSigner([SECRET], () => BASE, () => NOW);

  test('signing.vectors: a known secret, sound id, time, rendition and account give exactly these URLs, and each verifies', () => {
    for (const { disposition, choice, url } of VECTORS) {
      assert.deepEqual(signer.sign(ID, disposition, choice, 'acct-42'), { url, expiresAt: 1781528400 });
      assert.deepEqual(signer.verify(ID, queryOf(url)), {
        ok: true, expiresAt: 1781528400, choice, accountId: 'loudness' in choice ? 'acct-42' : null, canonicalQuery: url.split('?')[1],
      });
    }
    const both = signer.signBoth(ID);
    assert.equal(both.stream.url, VECTORS[0].url);
    assert.equal(both.download.url, VECTORS[1].url);
  });

  test('signing.one-format: the signatures of earlier releases (an HMAC-SHA256 of the secret, whole or halved, under an unsalted key id) are refused', () => {
    const exp = '1781528400';
    const oldKid = hash('sha256', SECRET, 'base64url').slice(0, 8);
    const newKid = new URL(VECTORS[0].url).searchParams.get('kid')!;
    const half = createHmac('sha256', SECRET).update(`${ID}\n${exp}`).digest();
    const whole = createHmac('sha256', SECRET).update(`${ID}\nstream\n${exp}`).digest('base64url');
    for (const kid of [oldKid, newKid]) {
      for (const [d, sig] of [['stream', half.subarray(0, 16).toString('base64url')], ['download', half.subarray(16).toString('base64url')], ['stream', whole]]) {
        assert.deepEqual(signer.verify(ID, { d, exp, kid, sig }), { ok: false, reason: 'invalid' }, `${kid} ${d} ${sig}`);
      }
    }
    // The current signature under the earlier key id names no key.
    assert.deepEqual(signer.verify(ID, { ...queryOf(VECTORS[0].url), kid: oldKid }), { ok: false, reason: 'invalid' });
  });

  test('signing.short-secret: a secret shorter than 32 random bytes in base64url (43 characters) signs nothing', () => {
    assert.throws(() => new MediaSigner([SECRET.slice(0, 42)], () => BASE, () => NOW), /at least 43 characters .*openssl rand -base64 32/);
    assert.doesNotThrow(() => new MediaSigner([SECRET.slice(0, 43)], () => BASE, () => NOW));
  });
});

describe('media: signing vectors through HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { SIGNING_SECRET: SECRET } });
  });
  after(() => server.close());

  test('signing.vectors.http: the API hands out URLs of the pinned construction under SIGNING_SECRET, and the media route serves them', async () => {
    const { key } = await server.account('pro');
    const { id, bytes } = await addSound(server.services, { name: 'Vector Sound' });
    const response = await server.get(`/api/v1/sounds/${id}/stream`, { key });
    assert.equal(response.status, 200);
    const { stream_url: url } = ((await response.json()) as { data: { stream_url: string } }).data;
    const exp = Math.ceil(server.clock.now / 1000) + 3600;
    const mac = createHmac('sha256', SECRET).update('sound-catalog media URL MAC key').digest('base64url');
    const sig = hash('sha3-512', `${mac}\n${id}\n${exp}`, 'base64url').slice(0, 24);
    assert.equal(url, `${server.url}/media/${id}.mp3?d=stream&exp=${exp}&kid=0IKiDN6R&sig=${sig}`);
    const served = await fetch(url);
    assert.equal(served.status, 200);
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), bytes);
  });
});
