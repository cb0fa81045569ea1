#!/usr/bin/env node
// Compiles src/ to dist/ (run by `npm install` as the prepare script, and by `npm run build`).
// `node scripts/build.js --out DIR` builds elsewhere. The build appears whole or not at all: it is
// made in a scratch folder and renamed into place. Types are checked by `npm run typecheck`, not here.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const out = path.resolve(outIndex > 0 ? process.argv[outIndex + 1] : path.join(ROOT, 'dist'));
const sources = path.join(ROOT, 'src');

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // Installed without dev dependencies (a deployment that ships a dist/ built elsewhere): nothing to do.
  console.log('sound-catalog build: TypeScript is not installed, so dist/ was not built; `npm install` with dev dependencies builds it');
  process.exit(0);
}

const scratch = `${out}.building-${process.pid}`;
rmSync(scratch, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--noCheck', '--outDir', scratch], { stdio: 'inherit' });
if (compiled.status !== 0) {
  rmSync(scratch, { recursive: true, force: true });
  console.error('sound-catalog build: tsc failed');
  process.exit(1);
}
// Files the code reads at run time (dashboard assets) go beside the compiled modules. The worker
// entry for sources is left out: compiled workers start from worker.js.
for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || entry.name.endsWith('.ts') || entry.name === 'worker-entry.js') continue;
  const from = path.join(entry.parentPath, entry.name);
  cpSync(from, path.join(scratch, path.relative(sources, from)));
}
rmSync(out, { recursive: true, force: true });
renameSync(scratch, out);
console.log(`sound-catalog build: ${path.relative(process.cwd(), out) || out} is up to date`);
