import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';

export type LameEncoder = WasmMediaEncoder<'audio/mpeg'>;

let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * A fresh LAME instance. The package's own factory decodes and compiles its inlined base64 WASM on
 * every call; compiling the shipped .wasm file once and instantiating it per encode is much
 * cheaper. Instances have no free(): their memory goes with them when they are dropped.
 */
export async function createLameEncoder(): Promise<LameEncoder> {
  compiled ??= compileLame().catch((error: unknown) => {
    compiled = null;
    throw error;
  });
  return createEncoder('audio/mpeg', await compiled);
}

async function compileLame(): Promise<WebAssembly.Module> {
  const path = createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3');
  return WebAssembly.compile(await readFile(path));
}
