import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addSound } from '../../helpers/sounds.ts';
import { signedIn, type SignedIn } from '../helpers/accounts.ts';
import { csrfToken, visibleText } from '../helpers/web-client.ts';

describe('dashboard metering: the catalog pages count against the daily quota like the API', () => {
  let server: TestServer;
  let soundId: string;
  let similarId: string;
  before(async () => {
    server = await startServer();
    soundId = (await addSound(server.services, { name: 'Glass Shatter', tags: ['glass'] })).id;
    similarId = (await addSound(server.services, { name: 'Glass Clink', tags: ['glass'] })).id;
  });
  after(() => server.close());

  /** The overview's "Remaining today" figure, as the reader sees it. */
  async function remainingOnOverview(user: SignedIn): Promise<number> {
    const text = visibleText((await user.client.get('/dashboard')).text);
    const match = /Remaining today ([\d,]+)/.exec(text);
    assert.ok(match, 'the overview shows what is left');
    return Number(match[1]!.replaceAll(',', ''));
  }

  const downloads = async () => (await server.services.catalog.findById(soundId))!.numDownloads;

  test(
    'metering.search: each search and each "More like ' + 'this" spends one request, which the overview shows',
    async () => {
      const pro = await signedIn(server, 'pro');
      const limit = pro.account.plan.dailyQuota;
      assert.equal(await remainingOnOverview(pro), limit);
      const search = await pro.client.get('/dashboard/catalog?q=glass');
      assert.equal(search.status, 200);
      assert.equal(search.headers.get('x-ratelimit-remaining'), String(limit - 1));
      const refused = await pro.client.get('/dashboard/catalog?min_duration=abc');
      assert.equal(refused.status, 400);
      assert.equal(
        refused.headers.get('x-ratelimit-remaining'),
        String(limit - 2),
        'a search with refused filters counts, as in the API',
      );
      const similar = await pro.client.get(`/dashboard/catalog/similar/${similarId}`);
      assert.equal(similar.status, 200);
      assert.equal(similar.headers.get('x-ratelimit-remaining'), String(limit - 3));
      assert.equal(await remainingOnOverview(pro), limit - 3);
    },
  );

  test(
    'metering.download: a download is a POST that spends ' + 'one request and one download; its GET changes nothing',
    async () => {
      const pro = await signedIn(server, 'pro');
      const limit = pro.account.plan.dailyQuota;
      const page = (await pro.client.get('/dashboard/catalog?q=shatter')).text;
      const before = await downloads();
      const get = await pro.client.get(`/dashboard/download/${soundId}?loudness=-16`);
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      assert.match(visibleText(get.text), /starts from the Download button/);
      const forged = await pro.client.post(`/dashboard/download/${soundId}`, { loudness: '-16', _csrf: 'forged' });
      assert.equal(forged.status, 403, 'the CSRF check comes first');
      assert.equal(await downloads(), before);
      assert.equal(await remainingOnOverview(pro), limit - 1, 'only the search counted so far');
      const download = await pro.client.post(`/dashboard/download/${soundId}`, {
        loudness: '-16',
        trim: 'true',
        _csrf: csrfToken(page),
      });
      assert.equal(download.status, 303);
      assert.equal(download.headers.get('x-ratelimit-remaining'), String(limit - 2));
      const url = new URL(download.location!);
      assert.equal(url.pathname, `/media/${soundId}.mp3`);
      assert.equal(Number(url.searchParams.get('loudness')), -16);
      assert.equal(url.searchParams.get('trim'), 'true');
      assert.equal(await downloads(), before + 1);
      assert.equal(await remainingOnOverview(pro), limit - 2);
    },
  );

  test(
    'metering.quota: past the daily quota, search, "More like ' +
      'this" and download answer 429 with Retry-After, in words',
    async () => {
      const pro = await signedIn(server, 'pro');
      const limit = pro.account.plan.dailyQuota;
      const page = (await pro.client.get('/dashboard/catalog?q=shatter')).text;
      // The rest of the day's quota, spent through the API's counter in one go.
      const spent = await server.services.quota.consume(pro.account.id, null, limit, server.clock.now, limit - 1);
      assert.equal(spent.remaining, 0);
      const before = await downloads();
      for (const response of [
        await pro.client.get('/dashboard/catalog?q=glass'),
        await pro.client.get(`/dashboard/catalog/similar/${similarId}`),
        await pro.client.post(`/dashboard/download/${soundId}`, { _csrf: csrfToken(page) }),
      ]) {
        assert.equal(response.status, 429);
        assert.ok(Number(response.headers.get('retry-after')) > 0);
        assert.equal(response.headers.get('x-ratelimit-remaining'), '0');
        assert.match(
          visibleText(response.text),
          /Today's quota is used up.*2,500 requests a day.*starts again at midnight UTC, in \d+ h/,
        );
      }
      assert.equal(await downloads(), before, 'a refused download counts nothing');
      assert.equal(await remainingOnOverview(pro), 0);
      server.clock.advance(12 * 3600 * 1000);
      assert.equal((await pro.client.get('/dashboard/catalog?q=glass')).status, 200, 'the next day it works again');
    },
  );

  test(
    'metering.free: a Free account follows its plan: the ' + 'catalog and downloads stay locked and nothing is counted',
    async () => {
      const free = await signedIn(server, 'free');
      const before = await downloads();
      const catalog = await free.client.get('/dashboard/catalog?q=glass');
      assert.equal(catalog.status, 403);
      assert.match(visibleText(catalog.text), /part of the paid plans/);
      assert.equal((await free.client.get(`/dashboard/catalog/similar/${similarId}`)).status, 403);
      assert.equal((await free.client.post(`/dashboard/download/${soundId}`, {}, '/dashboard')).status, 403);
      assert.equal(await downloads(), before);
      const [today] = await server.services.usageHistory.usage(free.account.id, [
        new Date(server.clock.now).toISOString().slice(0, 10),
      ]);
      assert.equal(today, 0);
    },
  );
});
