// WebAssembly text to binary, as build-wasm.js and the test that checks its output build it.
import wabt from 'wabt';

/** The module `wat` describes, as bytes. */
export async function wasmFromWat(wat) {
  const module = (await wabt()).parseWat('distance.wat', wat, { simd: true });
  try {
    return Buffer.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}
