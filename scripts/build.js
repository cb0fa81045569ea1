#!/usr/bin/env node
// Compiles src/ and the workspace packages (packages/*) to dist/ (run by `npm install` as the
// prepare script, and by `npm run build`). `node scripts/build.js --out DIR` builds elsewhere. The
// build appears whole or not at all: it is made in a scratch folder and renamed into place. Types
// are checked by `npm run typecheck`, not here.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  console.log(
    'sound-catalog build: TypeScript is not installed, so dist/ was not built; ' +
      '`npm install` with dev dependencies builds it',
  );
  process.exit(0);
}

const scratch = `${out}.building-${process.pid}`;
rmSync(scratch, { recursive: true, force: true });
const compiled = spawnSync(
  process.execPath,
  [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--noCheck', '--outDir', scratch],
  { stdio: 'inherit' },
);
if (compiled.status !== 0) fail('tsc failed');
// Files the code reads at run time (dashboard assets) go beside the compiled modules. The worker
// entry for sources is left out: compiled workers start from worker.js.
copyAssets(sources, scratch, (name) => name === 'worker-entry.js');
// The workspace packages (packages/*) export their TypeScript sources, which tsx runs but Node
// alone does not: each is compiled into dist/node_modules/<name>, where the compiled service's
// imports of it resolve before they reach the sources in node_modules.
for (const folder of readdirSync(path.join(ROOT, 'packages'), { withFileTypes: true })) {
  if (!folder.isDirectory()) continue;
  const packageRoot = path.join(ROOT, 'packages', folder.name);
  const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
  const packageOut = path.join(scratch, 'node_modules', manifest.name);
  const config = path.join(packageRoot, 'tsconfig.build.json');
  const built = spawnSync(process.execPath, [tsc, '-p', config, '--noCheck', '--outDir', packageOut], {
    stdio: 'inherit',
  });
  if (built.status !== 0) fail(`tsc failed on ${manifest.name}`);
  copyAssets(path.join(packageRoot, 'src'), packageOut, (name) => name.endsWith('.wat'));
  // Its exports, from the sources in src/ to the modules compiled beside this package.json.
  const compiledExports = JSON.parse(JSON.stringify(manifest.exports).replace(/"\.\/src\/([^"]*)\.ts"/g, '"./$1.js"'));
  const { name, version, type } = manifest;
  const compiledManifest = { name, version, private: true, type, exports: compiledExports };
  writeFileSync(path.join(packageOut, 'package.json'), `${JSON.stringify(compiledManifest, null, 2)}\n`);
}
rmSync(out, { recursive: true, force: true });
renameSync(scratch, out);
console.log(`sound-catalog build: ${path.relative(process.cwd(), out) || out} is up to date`);

/** Copies the files beside the sources that are neither TypeScript nor `skipped`, to the same places under `to`. */
function copyAssets(from, to, skipped) {
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.ts') || skipped(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    cpSync(file, path.join(to, path.relative(from, file)));
  }
}

function fail(message) {
  rmSync(scratch, { recursive: true, force: true });
  console.error(`sound-catalog build: ${message}`);
  process.exit(1);
}
