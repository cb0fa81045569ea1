import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { backendEnv } from '../helpers/backend.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { addDemoCatalog, addUsageHistory } from '../dashboard/helpers/demo-catalog.ts';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '../..');
const SCREENSHOTS = path.join(ROOT, 'test-output/screenshots');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'a long enough passphrase';

const missingBrowser = !existsSync(CHROMIUM);
// On CI a missing browser is a failure, not a skip: `.ci/run` installs it.
const skip =
  missingBrowser && process.env.CI !== 'true' ? `no browser at ${CHROMIUM}; the end-to-end test is skipped` : false;

/** The operator's command line, run as the operator would, against the test server's data folder. */
async function cli(server: TestServer, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/sound-catalog.js', ...args, '--json'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...backendEnv(server.dataDir),
      SOUND_CATALOG_DATA: server.dataDir,
      SOUND_CATALOG_DEMO: '0',
      LOG_LEVEL: 'silent',
    },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

async function shoot(page: Page, name: string, size: 'desktop' | 'phone'): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size}.png`), fullPage: true });
  // A page that scrolls sideways is broken, whatever the screenshot looks like. Compared with the
  // configured width: a mobile browser widens its layout viewport to fit content that overflows.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= page.viewportSize()!.width, `${name} (${size}) is ${width}px wide, wider than the screen`);
}

/** Collects Content-Security-Policy refusals: the pages must need nothing the policy forbids. */
function watchPolicy(page: Page, violations: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
}

test('e2e: sign up, operator upgrade, create and copy a key, call the API, revoke it', {
  skip,
  timeout: 180_000,
}, async () => {
  assert.ok(!missingBrowser, `CI=true and no browser at ${CHROMIUM}`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const server = await startServer();
  let browser: Browser | undefined;
  const violations: string[] = [];
  try {
    await addDemoCatalog(server.services);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const anonymous = await browser.newContext({ viewport: DESKTOP });
    const home = await anonymous.newPage();
    watchPolicy(home, violations);

    await home.goto(`${server.url}/`);
    await assertKeyboardFocusVisible(home);
    await home.evaluate(() => (document.activeElement as HTMLElement).blur());
    await shoot(home, 'home', 'desktop');
    await home.getByRole('link', { name: 'Create a free account' }).click();
    await home.waitForURL('**/dashboard/sign-up');
    await shoot(home, 'sign-up', 'desktop');

    const email = `e2e-${Date.now()}@example.com`;
    const desktop = await browser.newContext({ viewport: DESKTOP });
    await desktop.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await desktop.newPage();
    watchPolicy(page, violations);
    await page.goto(`${server.url}/dashboard/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is what the reader sees.
    assert.match(await page.locator('main').innerText(), /on the Free plan/);

    // The operator upgrades the account from the command line, in another process.
    const upgraded = await cli(server, 'accounts', 'set-plan', '--email', email, '--plan', 'pro');
    assert.equal(upgraded.plan, 'pro');
    const account = (await server.services.accounts.findByEmail(email))!;
    await addUsageHistory(server.services, account.id, server.clock.now);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('Production server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.locator('#new-key-value').inputValue();
    assert.match(shown, /^sc_[0-9A-Za-z]{49}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('The key is on your clipboard').waitFor();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(key, shown);
    await shoot(page, 'keys-created', 'desktop');

    const ok = await fetch(`${server.url}/api/v1/sounds?q=glass`, { headers: { 'x-api-key': key } });
    assert.equal(ok.status, 200);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is what the reader sees.
    assert.match(await page.locator('.stat-grid').innerText(), /Requests today\s+1\b/);
    await shoot(page, 'dashboard', 'desktop');

    await page.goto(`${server.url}/dashboard/catalog?sort=name&order=asc`);
    assert.equal(await page.locator('svg.waveform').count(), 8);
    await shoot(page, 'catalog', 'desktop');
    const media = page.waitForResponse((response) => response.url().includes('/media/'));
    await page
      .locator('audio')
      .first()
      .evaluate((audio: HTMLAudioElement) => {
        audio.preload = 'auto';
        audio.load();
      });
    assert.ok([200, 206].includes((await media).status()), 'the browser fetches the signed stream URL');

    // The download button posts its form (with the page's CSRF token) and keeps the choices made:
    // the signed URL it sends the browser to asks for that rendition. (The demo catalog's files
    // are not real recordings, so no rendition of them can be made: only the redirect is checked.)
    const card = () => page.locator('article.sound-card').first();
    await card().getByLabel('Loudness').selectOption('-16');
    await card().getByLabel('Trim silence').check();
    const posted = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/dashboard/download/'),
    );
    await card().getByRole('button', { name: 'Download' }).click();
    const answer = await posted;
    assert.equal(answer.status(), 303);
    assert.match(answer.request().postData() ?? '', /^_csrf=[^&]+&loudness=-16&trim=true$/);
    const renditionUrl = new URL(answer.headers().location!);
    assert.equal(renditionUrl.searchParams.get('d'), 'download');
    assert.equal(Number(renditionUrl.searchParams.get('loudness')), -16);
    assert.equal(renditionUrl.searchParams.get('trim'), 'true');
    // As recorded, the browser follows the form to the file and saves it.
    await page.goto(`${server.url}/dashboard/catalog?sort=name&order=asc`);
    const downloading = page.waitForEvent('download');
    await card().getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    assert.equal(new URL(download.url()).searchParams.get('d'), 'download');
    assert.equal(await download.failure(), null);
    assert.match(download.suggestedFilename(), /\.mp3$/);

    await page.goto(`${server.url}/dashboard/keys`);
    await page.getByRole('link', { name: 'Revoke Production server' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('is revoked; requests with it now get 401').waitFor();
    const refused = await fetch(`${server.url}/api/v1/sounds?q=glass`, { headers: { 'x-api-key': key } });
    assert.equal(refused.status, 401);

    await cli(server, 'accounts', 'set-plan', '--email', email, '--plan', 'pro', '--operator');
    await page.goto(`${server.url}/dashboard/operator`);
    await shoot(page, 'operator', 'desktop');

    await phoneScreenshots(browser, server, desktop, violations);
    assert.deepEqual(violations, []);
  } finally {
    await browser?.close();
    await server.close();
  }
});

/** The same pages at a phone's width: signed out for home and sign-up, signed in for the rest. */
async function phoneScreenshots(
  browser: Browser,
  server: TestServer,
  signedIn: BrowserContext,
  violations: string[],
): Promise<void> {
  const anonymous = await (await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })).newPage();
  watchPolicy(anonymous, violations);
  await anonymous.goto(`${server.url}/`);
  await shoot(anonymous, 'home', 'phone');
  await anonymous.goto(`${server.url}/dashboard/sign-up`);
  await shoot(anonymous, 'sign-up', 'phone');

  const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  await phone.addCookies(await signedIn.cookies());
  const page = await phone.newPage();
  watchPolicy(page, violations);
  await page.goto(`${server.url}/dashboard`);
  await shoot(page, 'dashboard', 'phone');
  await page.goto(`${server.url}/dashboard/keys`);
  await page.getByLabel('Key name').fill('Phone test');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.locator('#new-key-value').waitFor();
  await shoot(page, 'keys-created', 'phone');
  await page.goto(`${server.url}/dashboard/catalog?sort=name&order=asc`);
  await shoot(page, 'catalog', 'phone');
  await page.goto(`${server.url}/dashboard/operator`);
  await shoot(page, 'operator', 'phone');
}

/** The first Tab lands on the skip link, and focus is drawn with a visible outline. */
async function assertKeyboardFocusVisible(page: Page): Promise<void> {
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    return { text: element.textContent, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  assert.equal(focused.text, 'Skip to content');
  assert.equal(focused.outline, 'solid');
  assert.ok(focused.width >= 2);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Sound Catalog');
}
