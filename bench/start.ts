/**
 * Start time side by side:  node --import tsx bench/start.ts SIZE RUNS CHECKOUT...
 * CHECKOUT folders as bench/pairs.ts takes them (`.` for this one). On bench/pairs.ts's data folder
 * of SIZE sounds (filled once and kept), each checkout's `serve` is started in turn, RUNS times
 * round, on a fresh copy of the folder, with docs/operations.md's heap bound. Prints the wall time
 * to the address in its log (it listens once the catalog is loaded and sorted) and the CPU time the
 * process spent until then, which moves less than wall time with what else the machine is doing.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cpuByPid, keptCatalog } from './processes.ts';
import { heapArguments, startChild } from './server-process.ts';

const [size, runs] = process.argv.slice(2, 4).map(Number);
const checkouts = process.argv.slice(4).map((folder) => path.resolve(folder));
if (!size || !runs || checkouts.length === 0) {
  process.stderr.write('usage: node --import tsx bench/start.ts SIZE RUNS CHECKOUT...\n');
  process.exit(2);
}
const { dataDir } = await keptCatalog(size);

const copy = `${dataDir}-start`;
for (let run = 1; run <= runs; run++) {
  for (const checkout of checkouts) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(dataDir, copy, { recursive: true });
    const started = performance.now();
    const server = await startChild([...heapArguments(size), path.join(checkout, 'bin/sound-catalog.js'), 'serve'], {
      SOUND_CATALOG_DATA: copy,
      SOUND_CATALOG_DEMO: '0',
      PORT: '0',
    });
    const wallS = (performance.now() - started) / 1000;
    const cpuS = cpuByPid([server.child.pid!]).get(server.child.pid!)! / 1000;
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    console.log(JSON.stringify({ run, checkout, wallS: Number(wallS.toFixed(1)), cpuS: Number(cpuS.toFixed(1)) }));
  }
}
rmSync(copy, { recursive: true, force: true });
