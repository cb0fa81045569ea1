/** What the benchmarks share: CPU time read from /proc, the API keys they send, a kept catalog. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from '../src/db/dialects/better-sqlite3.js';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';
import { fillCatalog } from './fill-catalog.ts';

/** User + system CPU time of each process, in ms (/proc/PID/stat, in clock ticks of 10 ms). */
export function cpuByPid(pids: number[]): Map<number, number> {
  const spent = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      spent.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // A process that ended meanwhile (a PostgreSQL backend, say): its time is not counted.
    }
  }
  return spent;
}

/** The processes whose command name starts with `command`. */
export function pidsOf(command: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith(command);
      } catch {
        return false;
      }
    });
}

/** A hundred Enterprise accounts with two keys each: 5,000,000 requests a day between them. */
export async function createBenchKeys(env: Record<string, string>, prefix: string): Promise<string[]> {
  const services = await createServices(loadConfig(env));
  const keys: string[] = [];
  for (let i = 0; i < 100; i++) {
    const account = await services.accounts.createAccount(`${prefix}${i}@example.com`, 'enterprise');
    for (let k = 0; k < 2; k++) keys.push((await services.accounts.createKey(account.id, `${prefix}${k}`)).key);
  }
  await services.close();
  return keys;
}

/**
 * Ids of the data folder's sounds in a random order, `count` of them or all: what downloads and details ask for (a Zipf
 * pick then makes a few popular).
 */
export function soundIds(dataDir: string, count = -1): string[] {
  const db = new SQLite(path.join(dataDir, 'catalog.sqlite'), { readonly: true });
  const ids = db.prepare('SELECT id FROM sounds ORDER BY random() LIMIT ?').pluck().all(count) as string[];
  db.close();
  return ids;
}

/**
 * A data folder of `size` sounds filled once and kept ($TMPDIR/sound-catalog-pairs-SIZE), with API
 * keys for it; what bench/pairs.ts and bench/start.ts serve copies of.
 */
export async function keptCatalog(size: number): Promise<{ dataDir: string; keys: string[] }> {
  const dataDir = path.join(tmpdir(), `sound-catalog-pairs-${size}`);
  const keysFile = path.join(dataDir, 'bench-keys.json');
  if (!existsSync(keysFile)) {
    await fillCatalog(dataDir, size);
    const env = { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' };
    writeFileSync(keysFile, JSON.stringify(await createBenchKeys(env, 'pairs')));
  }
  return { dataDir, keys: JSON.parse(readFileSync(keysFile, 'utf8')) as string[] };
}
