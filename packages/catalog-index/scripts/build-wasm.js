#!/usr/bin/env node
// Builds src/distance.wasm from distance.wat with wabt (a dev dependency). The .wasm is committed,
// so installing or starting never needs this; run it (`npm run build:wasm`) after changing the
// .wat (test/vector-rows.test.ts fails until then).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { wasmFromWat } from './wasm-from-wat.js';

const source = path.resolve(import.meta.dirname, '../src/distance.wat');
writeFileSync(source.replace(/\.wat$/, '.wasm'), await wasmFromWat(readFileSync(source, 'utf8')));
