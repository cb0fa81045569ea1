import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { MediaSigner } from '../../src/media/signing.ts';
import { statusOf } from '../helpers/http.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';

describe('signed media', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let bytes: Uint8Array;
  const urlOf = async (kind: 'stream' | 'download') => {
    const { data } = await (await server.get(`/api/v1/sounds/${id}/${kind}`, { key })).json();
    return kind === 'stream' ? (data.stream_url as string) : (data.download_url as string);
  };

  before(async () => {
    server = await startServer({
      env: {
        SIGNING_SECRET:
          'current-secret-0123456789-abcdefghijklmnopqrstuvwxyz,old-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABC',
      },
    });
    ({ key } = await server.account('pro'));
    ({ id, bytes } = await addSound(server.services, { name: 'Glass Break Small (Ünïcode)' }));
  });
  after(() => server.close());

  test('media.stream: the URL alone serves the MP3 with length, etag, ranges and a short cache life', async () => {
    const response = await fetch(await urlOf('stream'));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'audio/mpeg');
    assert.equal(response.headers.get('accept-ranges'), 'bytes');
    assert.equal(response.headers.get('content-length'), String(bytes.length));
    assert.match(response.headers.get('etag') ?? '', /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    assert.equal(response.headers.get('cache-control'), 'private, max-age=3600');
    assert.equal(response.headers.get('content-disposition'), null);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), bytes);
  });

  test('media.cache: max-age shrinks with the signature lifetime', async () => {
    const url = await urlOf('stream');
    server.clock.advance(3000 * 1000);
    const response = await fetch(url);
    assert.equal(response.headers.get('cache-control'), 'private, max-age=600');
    server.clock.advance(-3000 * 1000);
  });

  test('media.range: single ranges give 206, bad ranges 416, HEAD has headers and no body', async () => {
    const url = await urlOf('stream');
    const partial = await fetch(url, { headers: { range: 'bytes=10-19' } });
    assert.equal(partial.status, 206);
    assert.equal(partial.headers.get('content-range'), `bytes 10-19/${bytes.length}`);
    assert.deepEqual(new Uint8Array(await partial.arrayBuffer()), bytes.slice(10, 20));
    const suffix = await fetch(url, { headers: { range: 'bytes=-5' } });
    assert.deepEqual(new Uint8Array(await suffix.arrayBuffer()), bytes.slice(-5));
    // A suffix longer than the file is all of it (RFC 9110): players ask for a fixed tail.
    const longSuffix = await fetch(url, { headers: { range: `bytes=-${bytes.length + 4096}` } });
    assert.equal(longSuffix.status, 206);
    assert.equal(longSuffix.headers.get('content-range'), `bytes 0-${bytes.length - 1}/${bytes.length}`);
    assert.deepEqual(new Uint8Array(await longSuffix.arrayBuffer()), bytes);
    const open = await fetch(url, { headers: { range: `bytes=${bytes.length - 3}-` } });
    assert.deepEqual(new Uint8Array(await open.arrayBuffer()), bytes.slice(-3));
    const outside = await fetch(url, { headers: { range: `bytes=${bytes.length}-` } });
    assert.equal(outside.status, 416);
    assert.equal(outside.headers.get('content-range'), `bytes */${bytes.length}`);
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(bytes.length));
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    // fetch() marks a request with If-None-Match no-cache (Fetch standard), which asks for a fresh
    // copy: a plain HTTP client revalidates as a browser's cache does.
    const etag = head.headers.get('etag')!;
    assert.equal(await statusOf(url, { 'if-none-match': etag }), 304);
    assert.equal(await statusOf(url, { 'if-none-match': 'W/"other"' }), 200);
    assert.equal(
      await statusOf(url, { range: 'bytes=0-9', 'if-range': 'W/"other"' }),
      200,
      'a stale If-Range sends the whole file',
    );
  });

  test('media.download: attachment with a filename made from the name', async () => {
    const response = await fetch(await urlOf('download'));
    assert.equal(response.status, 200);
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="glass-break-small-unicode.mp3"; ` +
        `filename*=UTF-8''Glass%20Break%20Small%20(%C3%9Cn%C3%AFcode).mp3`,
    );
  });

  test('media.tamper: any changed part of the URL is 403 and serves nothing', async () => {
    const url = new URL(await urlOf('stream'));
    const variants: Array<(u: URL) => void> = [
      (u) =>
        u.searchParams.set(
          'sig',
          u.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        ),
      (u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 60)),
      (u) => u.searchParams.set('d', 'inline'),
      (u) => u.searchParams.set('kid', 'unknown1'),
      (u) => u.searchParams.delete('sig'),
      (u) => {
        u.pathname = u.pathname.replace(id, 'ffffffffffffffff');
      },
      (u) => {
        u.pathname = '/media/..%2F..%2Fcatalog.sqlite';
      },
    ];
    for (const change of variants) {
      const changed = new URL(url);
      change(changed);
      const response = await fetch(changed);
      assert.equal(response.status, 403, changed.toString());
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(await response.json(), { error: 'This link is not valid' });
    }
  });

  test('media.expiry: a URL works until its expiry second and is 403 after it', async () => {
    const url = await urlOf('download');
    server.clock.advance(3599 * 1000);
    assert.equal((await fetch(url)).status, 200);
    server.clock.advance(1000);
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.deepEqual(await expired.json(), { error: 'This link has expired' });
    server.clock.advance(-3600 * 1000);
  });

  test('media.rotation: URLs signed with an older secret still verify until they expire', async () => {
    const old = new MediaSigner(
      ['old-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABC'],
      () => server.url,
      server.clock.read,
    );
    const response = await fetch(old.sign(id, 'stream').url);
    assert.equal(response.status, 200);
    const retired = new MediaSigner(
      ['retired-secret-0123456789-abcdefghijklmnopqrstuvwxyz'],
      () => server.url,
      server.clock.read,
    );
    assert.equal((await fetch(retired.sign(id, 'stream').url)).status, 403);
  });

  test("media.dispositions: one signature signs a sound's stream and download URL; d sets only the attachment", async () => {
    const signer = server.services.signer;
    const both = signer.signBoth(id);
    assert.deepEqual(both.stream, signer.sign(id, 'stream'));
    assert.deepEqual(both.download, signer.sign(id, 'download'));
    const streamSig = new URL(both.stream.url).searchParams.get('sig')!;
    assert.equal(streamSig.length, 43);
    assert.equal(new URL(both.download.url).searchParams.get('sig'), streamSig);
    const stream = await fetch(both.stream.url);
    const download = await fetch(both.download.url);
    assert.equal(stream.status, 200);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await stream.arrayBuffer()), Buffer.from(await download.arrayBuffer()));
    assert.equal(stream.headers.get('content-disposition'), null);
    assert.match(download.headers.get('content-disposition') ?? '', /^attachment; /);
  });

  test(
    'media.earlier-signatures: a URL signed the way earlier ' +
      'versions did (one HMAC per URL) is refused: one signature format',
    async () => {
      const secret = 'current-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
      const kid = createHash('sha256').update(secret).digest('base64url').slice(0, 8);
      const exp = Math.floor(server.clock.now / 1000) + 600;
      const sig = createHmac('sha256', secret).update(`${id}\nstream\n${exp}`).digest('base64url');
      const url = `${server.url}/media/${id}.mp3?d=stream&exp=${exp}&kid=${kid}&sig=${sig}`;
      const refused = await fetch(url);
      assert.equal(refused.status, 403);
      assert.deepEqual(await refused.json(), { error: 'This link is not valid' });
    },
  );
});
