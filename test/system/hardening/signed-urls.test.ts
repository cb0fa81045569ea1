import assert from 'node:assert/strict';
import crypto, { createHash, createHmac } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, mock, test } from 'node:test';
import fc from 'fast-check';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { MediaSigner, type Disposition } from '../../../src/media/signing.ts';
import type { RenditionChoice } from '../../../src/media/renditions.ts';
import { startServer, TestClock, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { addRealSound, tone } from '../../mcp/real-sounds.ts';

const SECRET_A = 'hardening-secret-A-0123456789-abcdefghijklmnopqrstuvwxyz';
const SECRET_B = 'hardening-secret-B-0123456789-abcdefghijklmnopqrstuvwxyz';
/** The key id a URL signed with this secret names (media/signing.ts; pinned in test/media/signing-vectors.test.ts). */
const kidOf = (secret: string) =>
  createHmac('sha256', secret).update('sound-catalog media URL key id').digest('base64url').slice(0, 8);
/** A URL's parts, the query's in the one order `sign` writes them. */
const FIELDS = ['id', 'd', 'loudness', 'trim', 'account', 'exp', 'kid', 'sig'] as const;
type Field = (typeof FIELDS)[number];
/** A signed URL taken apart: its path's sound id and each query parameter (absent ones undefined). */
type Parts = Record<Field, string | undefined>;

function partsOf(url: string): Parts {
  const parsed = new URL(url);
  const id = decodeURIComponent(parsed.pathname.replace(/^\/media\//, '').replace(/\.mp3$/, ''));
  const parts = { id } as Parts;
  for (const field of FIELDS.slice(1)) parts[field] = parsed.searchParams.get(field) ?? undefined;
  return parts;
}

function urlOf(base: string, parts: Parts): string {
  const query = FIELDS.slice(1)
    .filter((field) => parts[field] !== undefined)
    .map((field) => `${field}=${encodeURIComponent(parts[field]!)}`)
    .join('&');
  return `${base}/media/${encodeURIComponent(parts.id!)}.mp3?${query}`;
}

const sameParts = (a: Parts, b: Parts) => FIELDS.every((field) => a[field] === b[field]);

/** Refused the way every altered URL is: 403, a JSON error, not one byte of audio. */
async function assertRefused(url: string, method = 'GET', reason = 'This link is not valid'): Promise<void> {
  const response = await fetch(url, { method });
  const body = await response.text();
  assert.equal(response.status, 403, url);
  assert.notEqual(response.headers.get('content-type'), 'audio/mpeg', url);
  assert.equal(response.headers.get('content-disposition'), null, url);
  if (method === 'GET') assert.deepEqual(JSON.parse(body), { error: reason }, url);
}

describe('hardening: signed media URLs', () => {
  let server: TestServer;
  let key: string;
  let first: { id: string; bytes: Uint8Array };
  let second: { id: string; bytes: Uint8Array };
  const apiUrl = async (id: string, kind: 'stream' | 'download') => {
    const response = await server.get(`/api/v1/sounds/${id}/${kind}`, { key });
    assert.equal(response.status, 200);
    const { data } = (await response.json()) as {
      data: { stream_url?: string; download_url?: string; expires_in?: number };
    };
    return { url: (data.stream_url ?? data.download_url)!, expiresIn: data.expires_in };
  };

  before(async () => {
    server = await startServer({ env: { SIGNING_SECRET: `${SECRET_B},${SECRET_A}` } });
    ({ key } = await server.account('pro'));
    first = await addSound(server.services, { name: 'First Sound' });
    second = await addSound(server.services, { name: 'Second Sound' });
  });
  after(() => server.close());

  test(
    'signed-urls.expiry-boundary: a URL handed out mid-second serves until the ' +
      'millisecond before its expiry, and is 403 "expired" from that millisecond on',
    async () => {
      const start = server.clock.now;
      try {
        server.clock.now = start + 250;
        const { url, expiresIn } = await apiUrl(first.id, 'download');
        const exp = Number(new URL(url).searchParams.get('exp'));
        assert.equal(expiresIn, 3600);
        assert.ok(
          exp * 1000 >= server.clock.now + expiresIn * 1000,
          'the URL lives at least the expires_in the answer states',
        );
        server.clock.now = exp * 1000 - 1;
        const last = await fetch(url);
        assert.equal(last.status, 200);
        assert.deepEqual(new Uint8Array(await last.arrayBuffer()), first.bytes);
        assert.equal(last.headers.get('cache-control'), 'private, max-age=1', 'never cached past the signature');
        server.clock.now = exp * 1000;
        await assertRefused(url, 'GET', 'This link has expired');
        await assertRefused(url, 'HEAD');
        server.clock.now = exp * 1000 + 86_400_000;
        await assertRefused(url, 'GET', 'This link has expired');
      } finally {
        server.clock.now = start;
      }
    },
  );

  test(
    'signed-urls.other-sound: a signature, or the whole query, ' +
      "moved onto another sound's path is refused and serves nothing",
    async () => {
      for (const kind of ['stream', 'download'] as const) {
        const one = partsOf((await apiUrl(first.id, kind)).url);
        const other = partsOf((await apiUrl(second.id, kind)).url);
        await assertRefused(urlOf(server.url, { ...one, id: second.id }));
        await assertRefused(urlOf(server.url, { ...one, id: second.id }), 'HEAD');
        await assertRefused(urlOf(server.url, { ...other, sig: one.sig }));
        // The sound id with something after it, or a case change, names no URL that was signed.
        await assertRefused(urlOf(server.url, { ...one, id: `${first.id}.mp3` }));
        await assertRefused(urlOf(server.url, { ...one, id: first.id.toUpperCase() }));
        await assertRefused(urlOf(server.url, { ...one, id: `${first.id}\n` }));
        // Every URL handed out names ID.mp3: the id alone is another URL.
        await assertRefused(urlOf(server.url, one).replace('.mp3?', '?'));
      }
    },
  );

  test(
    'signed-urls.earlier-release: URLs in the forms of earlier releases (an HMAC-SHA256 of the secret, halved ' +
      'or whole, under the key id or the unsalted hash earlier releases named) are refused with 403 and serve nothing',
    async () => {
      const exp = String(Math.floor(server.clock.now / 1000) + 600);
      const half = createHmac('sha256', SECRET_B).update(`${first.id}\n${exp}`).digest();
      const whole = createHmac('sha256', SECRET_B).update(`${first.id}\nstream\n${exp}`).digest('base64url');
      const none = { loudness: undefined, trim: undefined, account: undefined };
      for (const kid of [kidOf(SECRET_B), createHash('sha256').update(SECRET_B).digest('base64url').slice(0, 8)]) {
        const earlier: Parts[] = [
          { id: first.id, d: 'stream', exp, kid, sig: half.subarray(0, 16).toString('base64url'), ...none },
          { id: first.id, d: 'download', exp, kid, sig: half.subarray(16).toString('base64url'), ...none },
          { id: first.id, d: 'stream', exp, kid, sig: whole, ...none },
        ];
        for (const parts of earlier) {
          await assertRefused(urlOf(server.url, parts));
          await assertRefused(urlOf(server.url, parts), 'HEAD');
        }
      }
      // A URL signed now has the one form: 43 characters of HMAC-SHA256, the key id by HMAC.
      const current = partsOf((await apiUrl(first.id, 'stream')).url);
      assert.equal(current.sig!.length, 43);
      assert.equal(current.kid, kidOf(SECRET_B));
      assert.equal((await fetch(urlOf(server.url, current))).status, 200);
    },
  );

  test(
    'signed-urls.repeated-parameters: a parameter given ' + 'twice is refused, even when one copy is the signed value',
    async () => {
      const url = (await apiUrl(first.id, 'stream')).url;
      const parts = partsOf(url);
      for (const field of ['d', 'exp', 'kid', 'sig'] as const) {
        await assertRefused(`${url}&${field}=${encodeURIComponent(parts[field]!)}`);
        await assertRefused(`${url}&${field}=x`);
      }
    },
  );

  test(
    'signed-urls.canonical: a URL with a parameter added, repeated, moved ' +
      'or escaped differently is refused; only the form handed out serves',
    async () => {
      const plain = (await apiUrl(first.id, 'stream')).url;
      const real = await addRealSound(server.services, tone(1, 0.1), 'Canonical Tone');
      const response = await server.get(`/api/v1/sounds/${real.id}/download?loudness=-16.4&trim=true`, { key });
      const rendition = ((await response.json()) as { data: { download_url: string } }).data.download_url;
      assert.match(rendition, /\?d=download&loudness=-16&trim=true&account=[\w-]+&exp=\d+&kid=[\w-]+&sig=[\w-]+$/);
      for (const url of [plain, rendition]) {
        const [base, query] = url.split('?') as [string, string];
        const pairs = query.split('&');
        const variants = [
          `${url}&utm_source=x`,
          `${url}&`,
          `${base}?x=1&${query}`,
          `${base}?&${query}`,
          `${base}?${[...pairs].reverse().join('&')}`,
          `${base}?${[pairs[1]!, pairs[0]!, ...pairs.slice(2)].join('&')}`,
          `${url}&${pairs[0]}`,
          `${base}?${pairs[0]}&${query}`,
          url.replace('d=', '%64='),
          url.replace(/exp=(\d)/, (_, digit: string) => `exp=%3${digit}`),
        ];
        for (const variant of variants) {
          assert.notEqual(variant, url);
          await assertRefused(variant);
        }
        assert.equal((await fetch(url)).status, 200, url);
      }
    },
  );

  test(
    'signed-urls.swaps: any mix of the parts (id, d, loudness, trim, account, ' +
      'exp, kid, sig) of two valid URLs that is not itself one of them is refused',
    async () => {
      const older = new MediaSigner([SECRET_A], () => server.url, server.clock.read);
      const signers = [server.services.signer, older];
      const renditions: RenditionChoice[] = [{}, { loudness: -16 }, { trim: true }, { loudness: -14, trim: true }];
      const start = server.clock.now;
      const originals: Parts[] = [];
      try {
        for (const offset of [0, 1000]) {
          server.clock.now = start + offset;
          for (const signer of signers) {
            for (const { id } of [first, second]) {
              for (const d of ['stream', 'download'] as Disposition[]) {
                for (const choice of renditions) {
                  for (const account of ['account-one', 'account-two'])
                    originals.push(partsOf(signer.sign(id, d, choice, account).url));
                }
              }
            }
          }
        }
      } finally {
        server.clock.now = start;
      }
      // Every original is valid (checked on the signer; the rendition ones would make renditions).
      for (const parts of originals) {
        const query = Object.fromEntries(
          FIELDS.slice(1)
            .filter((f) => parts[f] !== undefined)
            .map((f) => [f, parts[f]!]),
        );
        assert.equal(server.services.signer.verify(parts.id!, query).ok, true, urlOf('', parts));
      }
      const plain = originals.find((parts) => parts.loudness === undefined && parts.trim === undefined)!;
      assert.equal((await fetch(urlOf(server.url, plain))).status, 200);

      const index = fc.nat({ max: originals.length - 1 });
      await fc.assert(
        fc.asyncProperty(
          index,
          index,
          fc.uniqueArray(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: FIELDS.length - 1 }),
          async (i, j, taken) => {
            const mixed = { ...originals[i]! };
            for (const field of taken) mixed[field] = originals[j]![field];
            fc.pre(!originals.some((original) => sameParts(original, mixed)));
            await assertRefused(urlOf(server.url, mixed));
          },
        ),
        { numRuns: 150 },
      );
    },
  );
});

describe('hardening: signing secrets rotate', () => {
  test(
    'signed-urls.rotation: URLs signed with A keep working under "B,A" until they expire ' +
      'and no longer; new ones are signed with B; under "B" alone the old ones are refused',
    async () => {
      const clock = new TestClock();
      let server = await startServer({ clock, env: { SIGNING_SECRET: SECRET_A } });
      const dataDir = server.dataDir;
      const restart = async (secrets: string) => {
        await server.close({ keepData: true });
        server = await startServer({ clock, dataDir, env: { SIGNING_SECRET: secrets } });
      };
      try {
        const { key } = await server.account('pro');
        const { id, bytes } = await addSound(server.services, { name: 'Rotating Sound' });
        const urlsOf = async () =>
          Promise.all(
            ['stream', 'download'].map(async (kind) => {
              const { data } = (await (await server.get(`/api/v1/sounds/${id}/${kind}`, { key })).json()) as {
                data: Record<string, string>;
              };
              return data.stream_url ?? data.download_url!;
            }),
          );
        // Each start listens on a new port: a URL is sent to the server running now.
        const here = (url: string) => server.url + new URL(url).pathname + new URL(url).search;
        const serves = async (url: string) => {
          const response = await fetch(here(url));
          if (response.status !== 200) return false;
          assert.deepEqual(new Uint8Array(await response.arrayBuffer()), bytes);
          return true;
        };
        const kidA = kidOf(SECRET_A);
        const kidB = kidOf(SECRET_B);

        const signedWithA = await urlsOf();
        const exp = Number(new URL(signedWithA[0]!).searchParams.get('exp'));
        for (const url of signedWithA) assert.equal(new URL(url).searchParams.get('kid'), kidA);

        clock.advance(30 * 60_000);
        await restart(`${SECRET_B},${SECRET_A}`);
        for (const url of signedWithA) assert.equal(await serves(url), true, 'an A URL works under "B,A"');
        const signedWithB = await urlsOf();
        for (const url of signedWithB) {
          assert.equal(new URL(url).searchParams.get('kid'), kidB, 'new URLs are signed with B');
          assert.equal(await serves(url), true);
        }

        clock.advance(10 * 60_000);
        await restart(SECRET_B);
        for (const url of signedWithA) await assertRefused(here(url));
        for (const url of signedWithB) assert.equal(await serves(url), true, 'B URLs work under "B" alone');

        await restart(`${SECRET_B},${SECRET_A}`);
        clock.now = exp * 1000 - 1;
        for (const url of signedWithA) assert.equal(await serves(url), true, 'an A URL works to the last millisecond');
        clock.now = exp * 1000;
        for (const url of signedWithA) await assertRefused(here(url), 'GET', 'This link has expired');
        for (const url of signedWithB) assert.equal(await serves(url), true, 'B URLs, signed later, still work');
      } finally {
        await server.close();
      }
    },
  );

  test(
    'signed-urls.weak-secrets: an empty secret, or one shorter than 32 random bytes in base64url ' +
      '(43 characters), in the list (SIGNING_SECRET="secret,") is refused, never used to sign or verify',
    () => {
      for (const secrets of [[SECRET_B, ''], ['', SECRET_B], [SECRET_B, 'short'], [' '], [SECRET_B.slice(0, 42)], []]) {
        assert.throws(
          () => new MediaSigner(secrets, () => 'http://x', Date.now),
          /signing secret/,
          JSON.stringify(secrets),
        );
      }
      // The setting is refused before anything opens, with the one-line reason a start prints.
      for (const setting of [
        `${SECRET_B},`,
        `${SECRET_B},short`,
        'short',
        'hardening-secret-0123456789',
        SECRET_B.slice(0, 42),
      ]) {
        assert.throws(
          () => loadConfig({ SIGNING_SECRET: setting }),
          (error: Error) =>
            error instanceof ConfigError &&
            error.message ===
              'invalid setting SIGNING_SECRET: each comma-separated secret must be at ' +
                'least 43 characters, 32 random bytes (make one with: openssl rand -base64 32)',
          setting,
        );
      }
      // What the README says to run makes one that is accepted.
      assert.deepEqual(loadConfig({ SIGNING_SECRET: 'kJ3uQ0x1bqZ6m1v8Xg0e5Jt2yH7cW9rN4pA6sD8fG0E=' }).signingSecrets, [
        'kJ3uQ0x1bqZ6m1v8Xg0e5Jt2yH7cW9rN4pA6sD8fG0E=',
      ]);
    },
  );
});

describe('hardening: signatures are compared in constant time', () => {
  const signer = new MediaSigner(
    [SECRET_A],
    () => 'http://localhost',
    () => Date.parse('2026-06-15T12:00:00Z'),
  );
  const good = partsOf(signer.sign('abcdef0123456789', 'stream').url);
  const query = (sig: string) => ({ d: good.d, exp: good.exp, kid: good.kid, sig });

  function spyOnTimingSafeEqual() {
    const spy = mock.method(crypto, 'timingSafeEqual');
    syncBuiltinESMExports();
    return {
      calls: () => spy.mock.calls.map((call) => call.arguments as unknown as [Buffer, Buffer]),
      restore: () => {
        spy.mock.restore();
        syncBuiltinESMExports();
      },
    };
  }

  test('signed-urls.constant-time: a signature of the right length is compared with timingSafeEqual, right or wrong', () => {
    const spy = spyOnTimingSafeEqual();
    try {
      const wrong = good.sig!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
      assert.equal(signer.verify('abcdef0123456789', query(good.sig!)).ok, true);
      assert.deepEqual(signer.verify('abcdef0123456789', query(wrong)), { ok: false, reason: 'invalid' });
      // Not ASCII: as many characters as a signature has, of more bytes, is refused before any comparison.
      const accented = query('é'.repeat(good.sig!.length));
      assert.deepEqual(signer.verify('abcdef0123456789', accented), { ok: false, reason: 'invalid' });
      const calls = spy.calls();
      // Each of the two is compared with both forms it may be in (this release's, the one before's).
      assert.equal(calls.length, 4);
      for (const [given, expected] of calls) assert.equal(given.length, expected.length);
    } finally {
      spy.restore();
    }
  });

  test('signed-urls.lengths: a signature of another length (or not a string) is refused without throwing', () => {
    const spy = spyOnTimingSafeEqual();
    try {
      const wrong = ['', 'A', good.sig!.slice(1), `${good.sig}A`, 'A'.repeat(42), 'A'.repeat(10_000), 'é'.repeat(22)];
      for (const sig of [...wrong, '\u0000'.repeat(22)]) {
        assert.deepEqual(
          signer.verify('abcdef0123456789', query(sig)),
          { ok: false, reason: 'invalid' },
          sig.slice(0, 50),
        );
      }
      for (const sig of [[good.sig!, good.sig!], Array.from({ length: 22 }, () => '65'), { length: 22 }]) {
        assert.deepEqual(signer.verify('abcdef0123456789', { ...query(''), sig: sig as unknown as string }), {
          ok: false,
          reason: 'invalid',
        });
      }
      for (const [given, expected] of spy.calls())
        assert.equal(given.length, expected.length, 'timingSafeEqual is never handed unequal lengths');
    } finally {
      spy.restore();
    }
  });
});
