import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { signedIn, type SignedIn } from '../helpers/accounts.ts';
import { csrfToken, ownAddress, visibleText, WebClient } from '../helpers/web-client.ts';

describe('dashboard operator page and plan changes', () => {
  let server: TestServer;
  let operator: SignedIn;
  before(async () => {
    server = await startServer();
    operator = await signedIn(server, 'free', { operator: true });
  });
  after(() => server.close());

  test('operator.auth: only accounts marked as operators see the page', async () => {
    const anonymous = await new WebClient(server.url, ownAddress()).get('/dashboard/operator');
    assert.equal(anonymous.status, 303);
    const customer = await signedIn(server, 'enterprise');
    const refused = await customer.client.get('/dashboard/operator');
    assert.equal(refused.status, 403);
    assert.match(visibleText(refused.text), /Operators only/);
    assert.doesNotMatch(
      (await customer.client.get('/dashboard')).text,
      /href="\/dashboard\/operator"/,
      'no link either',
    );
    const posted = await customer.client.post(
      '/dashboard/operator/plan',
      { account_id: customer.account.id, plan: 'free' },
      '/dashboard',
    );
    assert.equal(posted.status, 403);
    assert.equal((await server.services.accounts.findById(customer.account.id))!.plan.name, 'enterprise');
  });

  test('operator.list: every account with its plan, and a search by email', async () => {
    const customer = await signedIn(server, 'pro');
    const page = await operator.client.get('/dashboard/operator');
    assert.equal(page.status, 200);
    const text = visibleText(page.text);
    assert.match(text, new RegExp(`${operator.email} Operator`));
    assert.ok(text.includes(customer.email));
    assert.match(
      page.text,
      new RegExp(`value="${customer.account.id}">[\\s\\S]*?<option value="pro" selected>Pro</option>`),
    );
    const found = (await operator.client.get(`/dashboard/operator?q=${encodeURIComponent(customer.email)}`)).text;
    assert.match(visibleText(found), /1 account/);
    const rows = [...found.matchAll(/<th scope="row" data-label="Email"><span>([^<]+)</g)].map((m) => m[1]);
    assert.deepEqual(rows, [customer.email]);
  });

  test('operator.set-plan: a free account moves to Pro and can create a key at once', async () => {
    const customer = await signedIn(server, 'free');
    const page = await operator.client.get('/dashboard/operator');
    const changed = await operator.client.post('/dashboard/operator/plan', {
      account_id: customer.account.id,
      plan: 'pro',
      _csrf: csrfToken(page.text),
    });
    assert.equal(changed.status, 303);
    assert.match(
      visibleText((await operator.client.get(changed.location!)).text),
      new RegExp(`${customer.email} is now on the Pro plan\\.`),
    );
    assert.equal((await server.services.accounts.findById(customer.account.id))!.plan.name, 'pro');
    assert.equal(
      (await customer.client.post('/dashboard/keys', { name: 'now allowed' }, '/dashboard/keys')).status,
      201,
    );
  });

  test('operator.set-plan: moving an account back to free makes its keys answer 403 with the upgrade URL', async () => {
    const customer = await signedIn(server, 'pro');
    const { key } = await server.services.accounts.createKey(customer.account.id, 'k');
    assert.equal((await server.get('/api/v1/sounds', { key })).status, 200);
    await operator.client.post(
      '/dashboard/operator/plan',
      { account_id: customer.account.id, plan: 'free' },
      '/dashboard/operator',
    );
    const refused = await server.get('/api/v1/sounds', { key });
    assert.equal(refused.status, 403);
    const body = (await refused.json()) as { upgrade_url: string };
    assert.equal(body.upgrade_url, `${server.url}/dashboard/upgrade`);
    const upgrade = await fetch(body.upgrade_url);
    assert.equal(upgrade.status, 200);
  });

  test('operator.errors: CSRF is required, and unknown plans or accounts change nothing', async () => {
    const customer = await signedIn(server, 'free');
    const forged = await operator.client.post('/dashboard/operator/plan', {
      account_id: customer.account.id,
      plan: 'enterprise',
    });
    assert.equal(forged.status, 403);
    const badPlan = await operator.client.post(
      '/dashboard/operator/plan',
      { account_id: customer.account.id, plan: 'platinum' },
      '/dashboard/operator',
    );
    assert.equal(badPlan.status, 400);
    assert.match(visibleText(badPlan.text), /Choose one of the plans: free, pro, enterprise\./);
    const badAccount = await operator.client.post(
      '/dashboard/operator/plan',
      { account_id: 'no-such-account', plan: 'pro' },
      '/dashboard/operator',
    );
    assert.equal(badAccount.status, 400);
    assert.equal((await server.services.accounts.findById(customer.account.id))!.plan.name, 'free');
  });

  test('upgrade.page: open to everyone; lists Pro and Enterprise and says how the operator upgrades', async () => {
    const anonymous = visibleText((await new WebClient(server.url, ownAddress()).get('/dashboard/upgrade')).text);
    assert.match(anonymous, /Pro \$15 \/ month 2,500 API requests a day Up to 2 API keys/);
    assert.match(anonymous, /Enterprise \$49 \/ month 50,000 API requests a day Up to 20 API keys/);
    const customer = await signedIn(server, 'free');
    const own = visibleText((await customer.client.get('/dashboard/upgrade')).text);
    assert.match(own, new RegExp(`sound-catalog accounts set-plan --email ${customer.email} --plan pro`));
    assert.match(own, /Free Your plan/);
  });
});
