#!/usr/bin/env node
// Builds each src/*.wasm from its .wat with wabt (a dev dependency). The .wasm files are committed,
// so installing or starting never needs this; run it (`npm run build:wasm`) after changing a .wat
// (the tests that compare each .wasm with its .wat fail until then).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { wasmFromWat } from './wasm-from-wat.js';

const folder = path.resolve(import.meta.dirname, '../src');
for (const name of readdirSync(folder).filter((name) => name.endsWith('.wat'))) {
  const source = path.join(folder, name);
  writeFileSync(source.replace(/\.wat$/, '.wasm'), await wasmFromWat(readFileSync(source, 'utf8')));
}
