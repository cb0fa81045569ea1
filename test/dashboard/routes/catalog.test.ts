import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { DESCRIPTOR_LENGTH } from '../../../src/audio/analyze/descriptors.ts';
import { addSound } from '../../helpers/sounds.ts';
import { signedIn, type SignedIn } from '../helpers/accounts.ts';
import { csrfToken, ownAddress, visibleText, WebClient } from '../helpers/web-client.ts';

/** The names of the sound cards on a page, in order. */
function cardNames(page: string): string[] {
  return [...page.matchAll(/<h3 id="sound-[^"]+">([^<]+)<\/h3>/g)].map((m) => m[1]!);
}

function audioSources(page: string): string[] {
  return [...page.matchAll(/<audio controls preload="none" src="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
}

describe('dashboard catalog: public samples and full search', () => {
  let server: TestServer;
  let pro: SignedIn;
  let sampleBytes: Uint8Array;
  before(async () => {
    server = await startServer();
    sampleBytes = (
      await addSound(server.services, { name: 'Glass Break', sample: true, tags: ['glass', 'impact'], duration: 1.2 })
    ).bytes;
    await addSound(server.services, { name: 'Door Knock', sample: true, tags: ['door'], duration: 0.8 });
    await addSound(server.services, { name: 'Rain Loop', category: 'AMBIENT', tags: ['rain', 'loop'], duration: 30 });
    await addSound(server.services, { name: 'Lofi Beat', category: 'LOFI', tags: ['beat', 'loop'], duration: 95 });
    await addSound(server.services, { name: 'Tiny Click', category: 'SFX', tags: ['click', 'ui'], duration: 0.05 });
    await addSound(server.services, { name: 'Synth Theme', category: 'MUSIC', tags: ['synth'], duration: 120 });
    pro = await signedIn(server, 'pro');
  });
  after(() => server.close());

  test('samples.public: anyone sees the samples with a waveform and a player that plays', async () => {
    const page = (await new WebClient(server.url, ownAddress()).get('/')).text;
    assert.deepEqual(cardNames(page).sort(), ['Door Knock', 'Glass Break']);
    assert.equal((page.match(/<svg class="waveform"/g) ?? []).length, 2);
    const sources = audioSources(page);
    assert.equal(sources.length, 2);
    const glass = sources.find((src) => src.includes(cardIdOf(page, 'Glass Break')))!;
    const audio = await fetch(glass);
    assert.equal(audio.status, 200);
    assert.equal(audio.headers.get('content-type'), 'audio/mpeg');
    assert.deepEqual(new Uint8Array(await audio.arrayBuffer()), sampleBytes);
  });

  test('samples.filters: keywords match name or description, tags match any of the list', async () => {
    const client = new WebClient(server.url, ownAddress());
    assert.deepEqual(cardNames((await client.get('/?q=glass')).text), ['Glass Break']);
    assert.deepEqual(cardNames((await client.get('/?tags=door,glass')).text).sort(), ['Door Knock', 'Glass Break']);
    assert.match(visibleText((await client.get('/?q=nothing-like-this')).text), /No sample matches these filters\./);
  });

  test('catalog.auth: signed-out visitors sign in first; free accounts are told it is a paid feature', async () => {
    const anonymous = await fetch(`${server.url}/dashboard/catalog`, { redirect: 'manual' });
    assert.equal(anonymous.status, 303);
    const free = await signedIn(server, 'free');
    const page = await free.client.get('/dashboard/catalog?q=rain');
    assert.equal(page.status, 403);
    assert.match(visibleText(page.text), /Searching the full catalog is part of the paid plans/);
    assert.deepEqual(cardNames(page.text), []);
  });

  test(
    'catalog.search: a Pro account sees every sound with ' + 'waveform, duration, category, tags, loudness and timing',
    async () => {
      const page = await pro.client.get('/dashboard/catalog?q=rain');
      assert.equal(page.status, 200);
      assert.deepEqual(cardNames(page.text), ['Rain Loop']);
      const text = visibleText(page.text);
      assert.match(text, /Rain Loop 30\.0 s/);
      assert.match(text, /AMBIENT rain loop/);
      assert.match(text, /Loudness -18\.2 LUFS True peak -1\.1 dBTP Onset 13 ms Peak at 40 ms Tail 900 ms License CC0/);
      assert.match(page.text, /<svg class="waveform"[^>]*aria-label="Waveform of Rain Loop"/);
      const [src] = audioSources(page.text);
      assert.equal((await fetch(src!)).status, 200);
    },
  );

  test('catalog.search: a 50 ms sound with a single peak pair still draws a full-width waveform', async () => {
    const page = (await pro.client.get('/dashboard/catalog?q=tiny')).text;
    assert.match(visibleText(page), /Tiny Click 50 ms/);
    const path = /<path class="waveform-shape" d="([^"]+)"/.exec(page)![1]!;
    assert.match(path, /^M0,[\d.]+L600,[\d.]+L600,[\d.]+L0,[\d.]+Z$/);
  });

  test(
    'catalog.filters: category (several), tags (all of), ' + 'duration range, sort and order work as in the API',
    async () => {
      const names = async (query: string) => cardNames((await pro.client.get(`/dashboard/catalog?${query}`)).text);
      assert.deepEqual(await names('category=LOFI&category=AMBIENT&sort=name&order=asc'), ['Lofi Beat', 'Rain Loop']);
      assert.deepEqual(await names('tags=loop,beat'), ['Lofi Beat']);
      assert.deepEqual(await names('min_duration=1&max_duration=60&sort=duration&order=asc'), [
        'Glass Break',
        'Rain Loop',
      ]);
      assert.deepEqual(await names('sort=duration&order=desc&min_duration=&max_duration=&q=&tags='), [
        'Synth Theme',
        'Lofi Beat',
        'Rain Loop',
        'Glass Break',
        'Door Knock',
        'Tiny Click',
      ]);
      const form = (await pro.client.get('/dashboard/catalog?category=LOFI&sort=name&order=asc&tags=beat')).text;
      assert.match(form, /value="LOFI" checked/);
      assert.match(form, /<option value="name" selected>/);
      assert.match(form, /<option value="asc" selected>/);
      assert.match(form, /id="tags" name="tags" type="text" value="beat"/);
    },
  );

  test('catalog.filters: the same query gives the same total as GET /api/v1/sounds', async () => {
    const { key } = await server.services.accounts.createKey(pro.account.id, 'compare');
    for (const query of ['q=loop', 'category=sfx,music', 'tags=loop', 'max_duration=1']) {
      const api = (await (await server.get(`/api/v1/sounds?${query}`, { key })).json()) as {
        pagination: { total: number };
      };
      const page = (await pro.client.get(`/dashboard/catalog?${query}`)).text;
      assert.equal(cardNames(page).length, api.pagination.total, query);
    }
  });

  test('catalog.pages: results come 20 to a page with links that keep the filters', async () => {
    for (let i = 0; i < 22; i++)
      await addSound(server.services, { name: `Whoosh ${String(i).padStart(2, '0')}`, tags: ['whoosh'] });
    const first = (await pro.client.get('/dashboard/catalog?tags=whoosh&sort=name&order=asc')).text;
    assert.equal(cardNames(first).length, 20);
    assert.match(visibleText(first), /22 sounds Page 1 of 2/);
    const next = /<a class="button button-quiet" rel="next" href="([^"]+)"/.exec(first)![1]!.replaceAll('&amp;', '&');
    assert.match(next, /tags=whoosh/);
    assert.match(next, /page=2/);
    assert.deepEqual(cardNames((await pro.client.get(next)).text), ['Whoosh 20', 'Whoosh 21']);
  });

  test('catalog.errors: invalid filters are explained on the page, with a 400', async () => {
    const bad = await pro.client.get('/dashboard/catalog?min_duration=abc&category=noise');
    assert.equal(bad.status, 400);
    const text = visibleText(bad.text);
    assert.match(text, /Min seconds: enter a number from 0 to 86,400\./);
    assert.match(text, /Category: unknown category NOISE/);
    const inverted = await pro.client.get('/dashboard/catalog?min_duration=10&max_duration=2');
    assert.equal(inverted.status, 400);
    assert.match(visibleText(inverted.text), /Max seconds must not be smaller than min seconds\./);
    assert.equal((await pro.client.get('/dashboard/catalog?page=0')).status, 400);
    const loudness = await pro.client.get('/dashboard/catalog?min_lufs=-5&max_lufs=-30&max_onset_ms=-1');
    assert.equal(loudness.status, 400);
    assert.match(visibleText(loudness.text), /Starts within \(ms\): enter a number from 0 to 86,400,000\./);
    const invertedLufs = await pro.client.get('/dashboard/catalog?min_lufs=-5&max_lufs=-30');
    assert.match(visibleText(invertedLufs.text), /Max LUFS must not be smaller than min LUFS\./);
  });

  test(
    'catalog.similar: each card links to "More like ' + 'this", which lists the nearest sounds by their audio',
    async () => {
      const vector = (shift: number) =>
        Array.from({ length: DESCRIPTOR_LENGTH }, (_, i) => Math.sin(i) + shift * Math.cos(3 * i));
      const { id: bell } = await addSound(server.services, {
        name: 'Bell Ding',
        tags: ['bell'],
        descriptors: vector(0),
      });
      await addSound(server.services, { name: 'Bell Dong', tags: ['bell'], descriptors: vector(0.1) });
      await addSound(server.services, { name: 'Deep Drone', tags: ['drone'], descriptors: vector(3) });
      const search = (await pro.client.get('/dashboard/catalog?q=bell%20ding')).text;
      assert.match(
        search,
        new RegExp(`<a class="button button-quiet" href="/dashboard/catalog/similar/${bell}">More like this</a>`),
      );
      const page = await pro.client.get(`/dashboard/catalog/similar/${bell}`);
      assert.equal(page.status, 200);
      assert.deepEqual(cardNames(page.text), ['Bell Ding', 'Bell Dong', 'Deep Drone']);
      const similarities = [...page.text.matchAll(/<dt>Similarity<\/dt><dd>([\d.]+)<\/dd>/g)].map((match) =>
        Number(match[1]),
      );
      assert.equal(similarities.length, 2);
      assert.ok(similarities[0]! > similarities[1]!, 'the nearer sound first');
      assert.match(visibleText(page.text), /Sounds like Bell Ding/);
      assert.equal((await pro.client.get('/dashboard/catalog/similar/no-such-sound')).status, 404);
      const free = await signedIn(server, 'free');
      assert.equal((await free.client.get(`/dashboard/catalog/similar/${bell}`)).status, 403);
    },
  );

  test(
    'catalog.download: the download button posts a form that ' +
      'counts one download and sends the file, or the rendition chosen',
    async () => {
      const { id } = await addSound(server.services, { name: 'Door Slam', tags: ['door'] });
      const card = (await pro.client.get('/dashboard/catalog?q=door%20slam')).text;
      assert.match(
        card,
        new RegExp(
          `<form class="download-form" method="post" ` +
            `action="/dashboard/download/${id}"[^>]*>\\s*<input type="hidden" name="_csrf" value="[^"]+">`,
        ),
      );
      assert.match(card, /<option value="-16">-16 LUFS \(podcasts, streaming\)<\/option>/);
      assert.match(card, /<input type="checkbox" id="trim-[^"]+" name="trim" value="true">/);
      const _csrf = csrfToken(card);
      const downloads = async () => (await server.services.catalog.findById(id))!.numDownloads;
      const before = await downloads();
      const rendition = await pro.client.post(`/dashboard/download/${id}`, { loudness: '-16', trim: 'true', _csrf });
      assert.equal(rendition.status, 303);
      const renditionUrl = new URL(rendition.location ?? '');
      assert.equal(renditionUrl.pathname, `/media/${id}.mp3`);
      assert.equal(renditionUrl.searchParams.get('d'), 'download');
      assert.equal(Number(renditionUrl.searchParams.get('loudness')), -16);
      assert.equal(renditionUrl.searchParams.get('trim'), 'true');
      const plain = await pro.client.post(`/dashboard/download/${id}`, { loudness: '', _csrf });
      const plainUrl = new URL(plain.location ?? '');
      assert.equal(plainUrl.searchParams.get('d'), 'download');
      assert.equal(plainUrl.searchParams.has('loudness'), false);
      assert.equal(plainUrl.searchParams.has('trim'), false);
      assert.equal(await downloads(), before + 2);
      const file = await fetch(plain.location!);
      assert.equal(file.status, 200);
      assert.match(file.headers.get('content-disposition') ?? '', /^attachment; filename="door-slam\.mp3"/);
      assert.equal((await pro.client.post('/dashboard/download/no-such-sound', { _csrf })).status, 404);
      const free = await signedIn(server, 'free');
      assert.equal((await free.client.post(`/dashboard/download/${id}`, {}, '/dashboard')).status, 403);
      assert.equal(await downloads(), before + 2, 'refusals count nothing');
    },
  );

  test(
    'catalog.extensions: onset and loudness filters and the ' +
      'relevance sort work as in the API, and come back filled in',
    async () => {
      await addSound(server.services, {
        name: 'Tight Kick',
        tags: ['kick', 'drum'],
        duration: 0.3,
        timing: { onset_ms: 0.5, peak_ms: 2, tail_ms: 250 },
        loudness: { integrated_lufs: -9, true_peak_db: -0.5 },
      });
      await addSound(server.services, {
        name: 'Drum Loop',
        tags: ['loop', 'kick'],
        description: 'A kick pattern',
        duration: 8,
      });
      const names = async (query: string) => cardNames((await pro.client.get(`/dashboard/catalog?${query}`)).text);
      assert.deepEqual(await names('max_onset_ms=1'), ['Tight Kick']);
      assert.deepEqual(await names('min_lufs=-10&max_lufs=-5'), ['Tight Kick']);
      assert.deepEqual(await names('q=drum&sort=relevance'), ['Drum Loop', 'Tight Kick']);
      const form = (
        await pro.client.get('/dashboard/catalog?q=drum&sort=relevance&max_onset_ms=1&min_lufs=-10&max_lufs=-5')
      ).text;
      assert.match(form, /<option value="relevance" selected>Relevance<\/option>/);
      assert.match(form, /id="max_onset_ms" name="max_onset_ms" type="number"[^>]* value="1"/);
      assert.match(form, /id="min_lufs" name="min_lufs" type="number"[^>]* value="-10"/);
      assert.match(form, /id="max_lufs" name="max_lufs" type="number"[^>]* value="-5"/);
    },
  );
});

function cardIdOf(page: string, name: string): string {
  return new RegExp(`<h3 id="sound-([^"]+)">${name}</h3>`).exec(page)![1]!;
}
