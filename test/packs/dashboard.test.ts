import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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
    for (const name of ['Pack Glass', 'Pack Rain', 'Pack Door']) ids.push((await addSound(server.services, { name })).id);
    pro = await signedIn(server, 'pro');
  });
  after(() => server.close());

  const postPack = (fields: Array<[string, string]>) => pro.client.send('/dashboard/pack', {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(),
  });

  test('each card has an "Add to pack" box tied to the pack form; posting the ticked ids sends the browser to the ZIP', async () => {
    const page = await pro.client.get('/dashboard/catalog?q=pack');
    assert.equal(page.status, 200);
    assert.match(page.text, /<form id="pack-form"[^>]*method="post" action="\/dashboard\/pack"[^>]*>\s*<input type="hidden" name="_csrf" value="[^"]+">/);
    for (const id of ids) assert.match(page.text, new RegExp(`<input type="checkbox" name="pick:${id}" value="on" form="pack-form">`));
    const _csrf = csrfToken(page.text);
    const downloads = async () => Promise.all(ids.map(async (id) => (await server.services.catalog.findById(id))!.numDownloads));
    const before = await downloads();

    const posted = await postPack([['_csrf', _csrf], [`pick:${ids[0]}`, 'on'], [`pick:${ids[2]}`, 'on']]);
    assert.equal(posted.status, 303);
    const url = new URL(posted.location!);
    assert.equal(url.pathname, '/media/packs/sound-pack.zip');
    assert.equal(url.searchParams.get('ids'), `${ids[0]},${ids[2]}`);
    const zip = await fetch(posted.location!);
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    const after = await downloads();
    assert.deepEqual(after, [before[0]! + 1, before[1]!, before[2]! + 1]);
  });

  test('without a CSRF token the form is refused; without a ticked sound it says what to do', async () => {
    const refused = await postPack([[`pick:${ids[0]}`, 'on']]);
    assert.equal(refused.status, 403);
    const _csrf = csrfToken((await pro.client.get('/dashboard/catalog')).text);
    const empty = await postPack([['_csrf', _csrf]]);
    assert.equal(empty.status, 400);
    assert.match(empty.text, /Add to pack/);
    const unknown = await postPack([['_csrf', _csrf], ['pick:no-such-sound', 'on']]);
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /no-such-sound/);
  });
});
