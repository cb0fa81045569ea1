import { readFileSync } from 'node:fs';

/**
 * The WebAssembly distance kernels (distance.wat), compiled once. Each user makes its own instance,
 * and so its own memory: the code rows (vector-rows.ts) and the cells' centroids (float-rows.ts).
 */
export const distanceKernel = new WebAssembly.Module(readFileSync(new URL('./distance.wasm', import.meta.url)));

/** The size of a page of WebAssembly memory, in bytes. */
export const PAGE = 65_536;
