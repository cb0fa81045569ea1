import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { withoutId3 } from '../../helpers/id3.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { addRealSound, tone } from '../../mcp/real-sounds.ts';
import {
  assertClean,
  assertJsonError,
  describeRequest,
  fuzzHeaders,
  fuzzSettings,
  NODE_HEADER_LIMIT,
  rawRequest,
  wireQuery,
  wireSegment,
  wireValue,
  type RawResponse,
} from './fuzz-helpers.ts';

/**
 * The signed media route (operator contract: "A changed or expired URL is refused (403) and never
 * serves the file"). A URL is taken apart into its path and its query pairs as they go on the
 * wire, changed at random, and judged by what it means: the sound id its path decodes to and the
 * query exactly as sent: media URLs are canonical, so a query with anything added, repeated,
 * moved or escaped differently is refused like a changed one (nobody makes new cache keys for one
 * file). A URL whose path is spelled differently but names the same file may serve it; any other
 * is 403, or 404 when its path names no route, and never serves anything.
 */

interface WireUrl {
  path: string;
  pairs: string[];
}

/** The parameters the signature covers, as the media route reads them. */
const SIGNED_PARAMS = ['d', 'loudness', 'trim', 'account', 'exp', 'kid', 'sig'];
/** Characters a change puts into a URL: valid in a request target, escapes and separators included. */
const EDIT_CHARS = "AaBbZz09-_.~%+=&;:@!$'()*,/".split('');

function toWire(url: string): WireUrl {
  const { pathname, search } = new URL(url);
  return { path: pathname, pairs: search.slice(1).split('&') };
}

const targetOf = (wire: WireUrl) => `${wire.path}${wire.pairs.length > 0 ? `?${wire.pairs.join('&')}` : ''}`;

/**
 * What a URL asks the media route for: the file (the path segment decoded, which must end in
 * `.mp3` as every URL the service hands out does) and the query exactly as sent but for `d`, which
 * is not signed (stream or download: the same file, as an attachment or not); null when the path
 * names no media route.
 */
function meaningOf(target: string): string | null {
  const [path, query = ''] = splitOnce(target, '?');
  const segment = /^\/media\/([^/]+)$/.exec(path)?.[1];
  if (segment === undefined) return null;
  try {
    return JSON.stringify([decodeURIComponent(segment), query.replace(/^d=(stream|download)(&|$)/, 'd=*$2')]);
  } catch {
    return null;
  }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** One change to a URL on the wire. */
type Change = (wire: WireUrl) => WireUrl;

function editText(text: string, at: number, kind: number, char: string): string {
  const i = text.length === 0 ? 0 : at % (text.length + 1);
  if (kind === 0) return text.slice(0, i) + char + text.slice(i);
  if (kind === 1) return text.slice(0, i) + char + text.slice(i + 1);
  return text.slice(0, i) + text.slice(i + 1);
}

/** Changes that keep the meaning, and changes that may alter it; the oracle (meaningOf) decides which happened. */
function changes(otherId: string): fc.Arbitrary<Change> {
  const index = fc.nat(50);
  const char = fc.constantFrom(...EDIT_CHARS);
  return fc.oneof(
    // Any character of the path or of a pair inserted, replaced or removed.
    fc.tuple(index, fc.nat(200), fc.nat(2), char).map(
      ([pair, at, kind, c]): Change =>
        (wire) => ({
          ...wire,
          pairs: wire.pairs.map((text, i) => (i === pair % wire.pairs.length ? editText(text, at, kind, c) : text)),
        }),
    ),
    fc.tuple(fc.nat(200), fc.nat(2), char).map(
      ([at, kind, c]): Change =>
        (wire) => {
          const edited = editText(wire.path.slice('/media/'.length), at, kind, c);
          return { ...wire, path: `/media/${edited}` };
        },
    ),
    // A pair dropped, repeated (same or another value), or one added.
    index.map(
      (pair): Change =>
        (wire) => ({ ...wire, pairs: wire.pairs.filter((_, i) => i !== pair % wire.pairs.length) }),
    ),
    fc.tuple(index, fc.option(wireValue, { nil: undefined })).map(
      ([pair, value]): Change =>
        (wire) => {
          const original = wire.pairs[pair % wire.pairs.length]!;
          return {
            ...wire,
            pairs: [...wire.pairs, value === undefined ? original : `${splitOnce(original, '=')[0]}=${value}`],
          };
        },
    ),
    fc
      .constantFrom(
        'loudness=-16.0',
        'loudness=-16',
        'trim=true',
        'trim=false',
        'trim=',
        'd=download',
        'd=stream',
        'exp=9999999999',
        'kid=',
        'sig=',
        'x=1',
        'D=stream',
      )
      .map(
        (pair): Change =>
          (wire) => ({ ...wire, pairs: [...wire.pairs, pair] }),
      ),
    // The id swapped for another sound's, upper-cased, suffixed; the stream/download flag flipped.
    fc.constant<Change>((wire) => ({ ...wire, path: wire.path.replace(/[0-9a-f]{16}/, otherId) })),
    fc.constant<Change>((wire) => ({ ...wire, path: wire.path.toUpperCase() })),
    fc.constantFrom('.mp3', '/', '%00', ';x', '%2F..', '.', '%20', '.MP3', '~').map(
      (suffix): Change =>
        (wire) => ({ ...wire, path: wire.path + suffix }),
    ),
    fc.constant<Change>((wire) => ({
      ...wire,
      pairs: wire.pairs.map((pair) =>
        pair.replace(/^d=(stream|download)$/, (_, d) => `d=${d === 'stream' ? 'download' : 'stream'}`),
      ),
    })),
    // Once meaning kept, now refused (media URLs are canonical): another order, a letter escaped, an unrelated
    // parameter.
    fc.nat().map(
      (seed): Change =>
        (wire) => ({
          ...wire,
          pairs: [...wire.pairs].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7)),
        }),
    ),
    fc.tuple(index, fc.nat(60)).map(
      ([pair, at]): Change =>
        (wire) => ({
          ...wire,
          pairs: wire.pairs.map((text, i) => {
            if (i !== pair % wire.pairs.length) return text;
            const position = text.indexOf('=') + 1 + (at % Math.max(1, text.length - text.indexOf('=') - 1));
            const letter = text[position];
            return letter && /[A-Za-z0-9]/.test(letter)
              ? `${text.slice(0, position)}%` +
                  `${letter.charCodeAt(0).toString(16).toUpperCase()}${text.slice(position + 1)}`
              : text;
          }),
        }),
    ),
    wireQuery(['utm_source', 'x', 'ref']).map(
      (extra): Change =>
        (wire) => ({ ...wire, pairs: extra === '' ? wire.pairs : [...wire.pairs, extra] }),
    ),
  );
}

describe('fuzz: the signed media route', () => {
  let server: TestServer;
  let key: string;
  let ids: { plain: string; real: string; other: string };
  const bytesOf = new Map<string, Buffer>();
  /** Signed URLs of every kind: stream and download, of a random-bytes file and of a real MP3 (renditions). */
  const signed: Array<{ url: string; id: string }> = [];

  before(async () => {
    server = await startServer();
    ({ key } = await server.account('enterprise'));
    const plain = await addSound(server.services, { name: 'Glass "Break" / Small' });
    const real = await addRealSound(server.services, tone(1, 0.1), 'Tone');
    const other = await addSound(server.services, { name: 'Other' });
    ids = { plain: plain.id, real: real.id, other: other.id };
    bytesOf.set(plain.id, Buffer.from(plain.bytes));
    bytesOf.set(real.id, Buffer.from(real.mp3));
    for (const [id, query] of [
      [plain.id, ''],
      [real.id, ''],
      [real.id, '?loudness=-16&trim=true'],
      [real.id, '?trim=true'],
    ] as const) {
      for (const kind of ['stream', 'download'] as const) {
        const response = await server.get(`/api/v1/sounds/${id}/${kind}${query}`, { key });
        const { data } = (await response.json()) as { data: Record<string, string> };
        signed.push({ url: data[`${kind}_url`]!, id });
      }
    }
  });
  after(() => server.close());

  /** A refusal: the listed status, JSON `{ error }`, and nothing of the file. */
  function assertRefused(response: RawResponse, statuses: number[], context: string) {
    assertClean(response, statuses, context);
    assertJsonError(response, context);
    assert.doesNotMatch(response.headers['content-type'] ?? '', /audio/, context);
    for (const bytes of bytesOf.values())
      assert.equal(response.bytes.includes(bytes.subarray(0, 64)), false, `file bytes in a refusal: ${context}`);
  }

  test(
    'fuzz.media.tamper: a changed URL serves nothing (403, or 404 ' +
      'off the route); one that means the same serves the same file',
    async () => {
      const url = fc.constantFrom(...signed.map((_, i) => i));
      await fc.assert(
        fc.asyncProperty(url, fc.array(changes(ids.other), { minLength: 1, maxLength: 3 }), async (which, edits) => {
          const { url: original, id } = signed[which]!;
          const changed = edits.reduce((wire, edit) => edit(wire), toWire(original));
          const target = targetOf(changed);
          const request = { target };
          const context = `${describeRequest(request)} from ${original}`;
          const response = await rawRequest(server.url, request);
          const same = meaningOf(target) === meaningOf(targetOf(toWire(original)));
          if (!same) return assertRefused(response, [403, 404], context);
          assertClean(response, [200], context);
          // A request head past the parser's limit (long added parameters) is refused before any route.
          if (response.headBytes > NODE_HEADER_LIMIT) return;
          assert.equal(response.headers['content-type'], 'audio/mpeg', context);
          // A rendition is another file; the catalog's own is served byte for byte.
          if (!/loudness|trim/.test(original))
            assert.ok(withoutId3(response.bytes).equals(bytesOf.get(id)!), `other bytes served: ${context}`);
        }),
        fuzzSettings(300),
      );
    },
  );

  test('fuzz.media.forged: any query on any media path, with or without the real key id, is 403', async () => {
    const kid = new URL(signed[0]!.url).searchParams.get('kid')!;
    const exp = new URL(signed[0]!.url).searchParams.get('exp')!;
    const query = fc
      .tuple(wireQuery(SIGNED_PARAMS), fc.boolean())
      .map(([fuzzed, real]) => (real ? `d=stream&exp=${exp}&kid=${kid}&${fuzzed}` : fuzzed));
    const file = fc.oneof(
      fc.constantFrom(ids.plain, `${ids.plain}.mp3`, ids.real, 'ffffffffffffffff.mp3'),
      wireSegment,
    );
    await fc.assert(
      fc.asyncProperty(file, query, async (name, search) => {
        const request = { target: `/media/${name}?${search}` };
        assertRefused(await rawRequest(server.url, request), [403], describeRequest(request));
      }),
      fuzzSettings(200),
    );
  });

  test('fuzz.media.expired: past its expiry a URL, changed or not, is 403', async () => {
    const url = fc.constantFrom(...signed.map((_, i) => i));
    await fc.assert(
      fc.asyncProperty(
        url,
        fc.array(changes(ids.other), { maxLength: 2 }),
        fc.integer({ min: 0, max: 400 * 86_400 }),
        async (which, edits, lateBy) => {
          const { url: original } = signed[which]!;
          const expiresAt = Number(new URL(original).searchParams.get('exp'));
          const before = server.clock.now;
          server.clock.now = (expiresAt + lateBy) * 1000;
          try {
            const request = { target: targetOf(edits.reduce((wire, edit) => edit(wire), toWire(original))) };
            assertRefused(await rawRequest(server.url, request), [403, 404], describeRequest(request));
          } finally {
            server.clock.now = before;
          }
        },
      ),
      fuzzSettings(100),
    );
  });

  test(
    'fuzz.media.headers: any headers on a valid URL get a ' + 'file answer (200, 206, 304, 412 or 416), never a 5xx',
    async () => {
      const range = fc.oneof(
        fc
          .tuple(fc.integer({ min: -10, max: 3000 }), fc.integer({ min: -10, max: 3000 }))
          .map(([a, b]) => `bytes=${a}-${b}`),
        fc.constantFrom(
          'bytes=-0',
          'bytes=0-',
          'bytes=-99999',
          'bytes=0-0,1-1',
          'bytes=5-1',
          'bytes=',
          'bytes=a-b',
          'items=0-1',
          `bytes=0-1,${'2-3,'.repeat(200)}`,
        ),
      );
      const extra = fc.array(
        fc.tuple(
          fc.constantFrom('range', 'if-range', 'if-none-match', 'if-match', 'if-modified-since', 'if-unmodified-since'),
          fc.oneof(range, fc.constantFrom('*', 'W/"x"', '"x"', 'Thu, 01 Jan 1970 00:00:00 GMT', 'not a date', '')),
        ),
        { maxLength: 4 },
      );
      const url = fc.constantFrom(...signed.map((_, i) => i).filter((i) => !/loudness|trim/.test(signed[i]!.url)));
      // The files as delivered (the stored one behind the sound's tags), fetched once: ranges are of these.
      const delivered = new Map<string, Buffer>();
      for (const { url: plain, id } of signed.filter((entry) => !/loudness|trim/.test(entry.url))) {
        const whole = await rawRequest(server.url, { target: targetOf(toWire(plain)) });
        assert.ok(withoutId3(whole.bytes).equals(bytesOf.get(id)!));
        delivered.set(id, whole.bytes);
      }
      await fc.assert(
        fc.asyncProperty(
          url,
          fuzzHeaders,
          extra,
          fc.constantFrom('GET', 'HEAD'),
          async (which, headers, conditions, method) => {
            const { url: original, id } = signed[which]!;
            const request = { method, target: targetOf(toWire(original)), headers: [...headers, ...conditions] };
            const response = await rawRequest(server.url, request);
            assertClean(response, [200, 206, 304, 412, 416], describeRequest(request));
            if (response.status === 200 && method === 'GET')
              assert.ok(response.bytes.equals(delivered.get(id)!), describeRequest(request));
            if (response.status === 206)
              assert.ok(delivered.get(id)!.includes(response.bytes), describeRequest(request));
          },
        ),
        fuzzSettings(200),
      );
    },
  );

  test(
    'fuzz.media.methods: other methods on a media URL serve ' +
      'nothing (OPTIONS is the CORS answer, the rest name no route)',
    async () => {
      const method = fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...signed.map((_, i) => i)),
          method,
          fc.option(wireValue, { nil: undefined }),
          async (which, verb, body) => {
            const request = {
              method: verb,
              target: targetOf(toWire(signed[which]!.url)),
              headers: [['content-type', 'application/json']] as Array<[string, string]>,
              body,
            };
            const response = await rawRequest(server.url, request);
            if (verb !== 'OPTIONS') return assertRefused(response, [400, 404, 405, 413, 415], describeRequest(request));
            assertClean(response, [204], describeRequest(request));
            assert.equal(response.bytes.length, 0, describeRequest(request));
          },
        ),
        fuzzSettings(50),
      );
    },
  );

  test('fuzz.media.alive: every signed URL still serves its file', async () => {
    for (const { url, id } of signed) {
      const response = await rawRequest(server.url, { target: targetOf(toWire(url)) });
      assert.equal(response.status, 200, url);
      // The stored file behind the sound's ID3v2 tag (random bytes have none).
      if (!/loudness|trim/.test(url)) assert.ok(withoutId3(response.bytes).equals(bytesOf.get(id)!));
    }
  });
});
