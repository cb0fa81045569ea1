/**
 * What the soak benchmark (bench/soak.ts) prepares before its traffic: a catalog with real audio
 * (seeded through the CLI) and many metadata-only sounds (bench/fill-catalog.ts), and a dashboard
 * account signed in through the real forms.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fillCatalog } from './fill-catalog.ts';
import { soundIds } from './processes.ts';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/** Runs `sound-catalog ARGS --json` (the compiled CLI) and returns the one JSON object it prints. */
export async function cli(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [path.join(root, 'bin/sound-catalog.js'), ...args, '--json'], {
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

export interface Catalog {
  /** Every sound, in a random order (a Zipf pick then makes some of them popular). */
  ids: string[];
  /** The seeded sounds: real MP3 files behind their signed URLs. */
  audioIds: string[];
  seedSeconds: number;
  fillSeconds: number;
}

/** Seeds `audio` real sounds with `sound-catalog seed`, then adds `filled` metadata-only sounds. */
export async function buildCatalog(dataDir: string, audio: number, filled: number): Promise<Catalog> {
  const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
  let started = performance.now();
  await cli(['seed', '--count', String(audio), '--seed', 'soak'], env);
  const seedSeconds = (performance.now() - started) / 1000;
  const audioIds = soundIds(dataDir);
  started = performance.now();
  await fillCatalog(dataDir, filled);
  const fillSeconds = (performance.now() - started) / 1000;
  return { ids: soundIds(dataDir), audioIds, seedSeconds, fillSeconds };
}

/**
 * Signs up through the dashboard's form, has the operator move the account to Enterprise (the
 * CLI, so that the catalog pages open), then signs in afresh: the session cookie the pages are
 * fetched with.
 */
export async function dashboardCookie(url: string, env: Record<string, string>): Promise<string> {
  const email = `soak-${process.pid}@example.com`;
  const password = 'soak benchmark password';
  const signUp = await postForm(url, '/dashboard/sign-up', { email, password });
  if (signUp.status !== 303) throw new Error(`dashboard sign-up answered ${signUp.status}`);
  await cli(['accounts', 'set-plan', '--email', email, '--plan', 'enterprise'], env);
  const signIn = await postForm(url, '/dashboard/sign-in', { email, password });
  if (signIn.status !== 303) throw new Error(`dashboard sign-in answered ${signIn.status}`);
  const overview = await fetch(`${url}/dashboard`, { headers: { cookie: signIn.cookie }, redirect: 'manual' });
  if (overview.status !== 200) throw new Error(`the signed-in overview answered ${overview.status}`);
  return signIn.cookie;
}

/** Opens the form's page (for its cookies and CSRF token), then posts the form as a browser does. */
async function postForm(
  url: string,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; cookie: string }> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0]!.split('=') as [string, string];
      cookies.set(name, value);
    }
  };
  const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const page = await fetch(url + path);
  keep(page);
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!token) throw new Error(`no CSRF token on ${path}`);
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: header() },
    body: new URLSearchParams({ ...fields, _csrf: token }).toString(),
    redirect: 'manual',
  });
  keep(response);
  await response.arrayBuffer();
  return { status: response.status, cookie: header() };
}
