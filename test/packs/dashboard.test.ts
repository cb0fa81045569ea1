import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { synthesizeSound } from '../../src/audio/synth/index.ts';
import { encodeAndMeasure } from '../../src/ingest/measure.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addSound } from '../helpers/sounds.ts';
import { signedIn, type SignedIn } from '../dashboard/helpers/accounts.ts';
import { csrfToken } from '../dashboard/helpers/web-client.ts';

describe('packs.dashboard: sounds ticked in the catalog download as one pack, through a form behind CSRF', () => {
  let server: TestServer;
  let pro: SignedIn;
  const ids: string[] = [];

  before(async () => {
    server = await startServer();
    for (const name of ['Pack Glass', 'Pack Rain', 'Pack Door'])
      ids.push((await addSound(server.services, { name })).id);
    pro = await signedIn(server, 'pro');
  });
  after(() => server.close());

  const postPack = (fields: Array<[string, string]>) =>
    pro.client.send('/dashboard/pack', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  test(
    'each card has an "Add to pack" box tied to the pack ' +
      'form; posting the ticked ids sends the browser to the ZIP',
    async () => {
      const page = await pro.client.get('/dashboard/catalog?q=pack');
      assert.equal(page.status, 200);
      assert.match(
        page.text,
        new RegExp(
          '<form id="pack-form"[^>]*method="post" action="\\/dashboard\\/pack"[^>]*>' +
            '\\s*<input type="hidden" name="_csrf" value="[^"]+">',
        ),
      );
      for (const id of ids)
        assert.match(page.text, new RegExp(`<input type="checkbox" name="pick:${id}" value="on" form="pack-form">`));
      const _csrf = csrfToken(page.text);
      const downloads = async () =>
        Promise.all(ids.map(async (id) => (await server.services.catalog.findById(id))!.numDownloads));
      const before = await downloads();

      const posted = await postPack([
        ['_csrf', _csrf],
        [`pick:${ids[0]}`, 'on'],
        [`pick:${ids[2]}`, 'on'],
      ]);
      assert.equal(posted.status, 303);
      const url = new URL(posted.location!);
      assert.equal(url.pathname, '/media/packs/sound-pack.zip');
      assert.equal(url.searchParams.get('ids'), `${ids[0]},${ids[2]}`);
      const zip = await fetch(posted.location!);
      assert.equal(zip.status, 200);
      assert.equal(zip.headers.get('content-type'), 'application/zip');
      const after = await downloads();
      assert.deepEqual(after, [before[0]! + 1, before[1]!, before[2]! + 1]);
    },
  );

  test(
    'the pack form has a format, rate and channels; a FLAC mono pack comes as ' +
      '.flac files, and a combination no encoder makes is a 400 saying which field',
    async () => {
      const page = await pro.client.get('/dashboard/catalog?q=pack');
      for (const [name, option] of [
        ['format', 'flac'],
        ['sample_rate', '48000'],
        ['channels', '1'],
      ]) {
        assert.match(
          page.text,
          new RegExp(`<select id="pack-${name}" name="${name}">.*<option value="${option}">`, 's'),
          name,
        );
      }
      const { mp3, measurements } = await encodeAndMeasure(synthesizeSound('pack-dashboard', 0).audio);
      const real = await addSound(server.services, { name: 'Pack Bell', bytes: mp3, ...measurements });
      const _csrf = csrfToken(page.text);
      const posted = await postPack([
        ['_csrf', _csrf],
        [`pick:${real.id}`, 'on'],
        ['format', 'flac'],
        ['sample_rate', ''],
        ['channels', '1'],
      ]);
      assert.equal(posted.status, 303);
      const url = new URL(posted.location!);
      assert.equal(url.searchParams.get('format'), 'flac');
      assert.equal(url.searchParams.get('channels'), '1');
      assert.equal(url.searchParams.get('sample_rate'), null, "the sound's own rate");
      const zip = Buffer.from(await (await fetch(posted.location!)).arrayBuffer());
      assert.ok(zip.includes(Buffer.from(`pack-bell-${real.id}.flac`)));
      assert.ok(zip.includes(Buffer.from('fLaC')), 'a FLAC stream in the ZIP');

      const refused = await postPack([
        ['_csrf', _csrf],
        [`pick:${real.id}`, 'on'],
        ['format', 'opus'],
        ['sample_rate', '44100'],
      ]);
      assert.equal(refused.status, 400);
      assert.match(refused.text, /Sample rate: opus is made at 48000 Hz/);
    },
  );

  test('without a CSRF token the form is refused; without a ticked sound it says what to do', async () => {
    const refused = await postPack([[`pick:${ids[0]}`, 'on']]);
    assert.equal(refused.status, 403);
    const _csrf = csrfToken((await pro.client.get('/dashboard/catalog')).text);
    const empty = await postPack([['_csrf', _csrf]]);
    assert.equal(empty.status, 400);
    assert.match(empty.text, /Add to pack/);
    const unknown = await postPack([
      ['_csrf', _csrf],
      ['pick:no-such-sound', 'on'],
    ]);
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /no-such-sound/);
  });
});
