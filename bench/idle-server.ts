/**
 * What a server on the embedded database costs when no request comes:
 *   node --import tsx bench/idle-server.ts SIZE [CHECKOUT...]   (default: the current checkout, `.`)
 * Each CHECKOUT (a folder holding this project, built; see bench/pairs.ts) serves a copy of the
 * kept catalog of SIZE sounds ($TMPDIR/sound-catalog-pairs-SIZE, as pairs.ts fills it: download
 * counts all at the version the fill gave them, as after a migration or an import). Once it has
 * settled (server-process.ts settleSeconds, plus 10 s), its CPU time is read over BENCH_SECONDS
 * (10). What it spends then is following the change log and the download counts, ten times a
 * second each, and its timers.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cpuByPid, keptCatalog } from './processes.ts';
import { residentMemoryMb, settleSeconds, startChild } from './server-process.ts';

const size = Number(process.argv[2]);
const checkouts = (process.argv.length > 3 ? process.argv.slice(3) : ['.']).map((folder) => path.resolve(folder));
if (!size) {
  process.stderr.write('usage: node --import tsx bench/idle-server.ts SIZE [CHECKOUT...]\n');
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const { dataDir } = await keptCatalog(size);

for (const checkout of checkouts) {
  const copy = `${dataDir}-idle`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(dataDir, copy, { recursive: true });
  const env = { SOUND_CATALOG_DATA: copy, SOUND_CATALOG_DEMO: '0', PORT: '0' };
  const { child } = await startChild([path.join(checkout, 'bin/sound-catalog.js'), 'serve'], env);
  try {
    await new Promise((resolve) => setTimeout(resolve, (settleSeconds(size) + 10) * 1000));
    const before = cpuByPid([child.pid!]).get(child.pid!)!;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const after = cpuByPid([child.pid!]).get(child.pid!)!;
    const cpuMsPerSecond = Math.round((after - before) / seconds);
    console.log(JSON.stringify({ checkout, size, cpuMsPerSecond, rssMb: await residentMemoryMb(child.pid!) }));
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(copy, { recursive: true, force: true });
  }
}
