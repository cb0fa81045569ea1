import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKGROUND } from '../../../src/audio/pictures/draw.ts';
import { needsFfmpeg } from '../../audio/helpers/ffmpeg.ts';
import { pixelsOtherThan, readPng } from '../../audio/helpers/png.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addRealSound, tone } from '../../mcp/real-sounds.ts';
import { signedIn, type SignedIn } from '../helpers/accounts.ts';
import { ownAddress, WebClient } from '../helpers/web-client.ts';

/** The spectrogram images of the sound cards on a page. */
function spectrogramSources(page: string): string[] {
  return [...page.matchAll(/<img class="spectrogram" src="([^"]+)"/g)].map((match) => match[1]!);
}

describe('dashboard pictures: sound cards show the spectrogram, counted like the API', needsFfmpeg, () => {
  let server: TestServer;
  let pro: SignedIn;
  let id: string;
  before(async () => {
    server = await startServer();
    ({ id } = await addRealSound(server.services, tone(1.5, 0.6, 880), 'Bright Beep', ['beep']));
    pro = await signedIn(server, 'pro');
  });
  after(() => server.close());

  /** A GET with the signed-in browser's cookies, read as bytes. */
  const fetchAs = (user: SignedIn, path: string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      redirect: 'manual',
      headers: { cookie: [...user.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...headers },
    });

  test("pictures.card: a catalog card shows the API's small spectrogram; each image counts one request", async () => {
    const search = await pro.client.get('/dashboard/catalog?q=beep');
    assert.equal(search.status, 200);
    const sources = spectrogramSources(search.text);
    assert.deepEqual(sources, [`/dashboard/catalog/sounds/${id}/spectrogram.png`]);
    const remaining = Number(search.headers.get('x-ratelimit-remaining'));

    const image = await fetchAs(pro, sources[0]!);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal(Number(image.headers.get('x-ratelimit-remaining')), remaining - 1);
    const png = new Uint8Array(await image.arrayBuffer());
    const read = readPng(png);
    assert.deepEqual([read.width, read.height], [600, 150]);
    assert.ok(pixelsOtherThan(read, BACKGROUND) > 0);
    const { key } = await server.account('pro');
    const rest = await server.get(`/api/v1/sounds/${id}/spectrogram.png?size=small`, { key });
    assert.deepEqual(new Uint8Array(await rest.arrayBuffer()), png, 'the same picture as the API');

    const again = await fetchAs(pro, sources[0]!, { 'if-none-match': image.headers.get('etag')! });
    assert.equal(again.status, 304);
    assert.equal(Number(again.headers.get('x-ratelimit-remaining')), remaining - 2, 'a 304 counts, as in the API');
  });

  test('pictures.access: signed out it asks to sign in; a free plan and an unknown sound are refused', async () => {
    const path = `/dashboard/catalog/sounds/${id}/spectrogram.png`;
    const anonymous = await new WebClient(server.url, ownAddress()).get(path);
    assert.equal(anonymous.status, 303);
    const free = await signedIn(server, 'free');
    assert.equal((await fetchAs(free, path)).status, 403);
    assert.equal((await fetchAs(pro, '/dashboard/catalog/sounds/no-such-sound/spectrogram.png')).status, 404);
    const samples = (await new WebClient(server.url, ownAddress()).get('/')).text;
    assert.deepEqual(spectrogramSources(samples), [], 'the public samples show none');
  });
});
