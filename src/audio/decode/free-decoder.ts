/**
 * Frees a WASM decoder's memory. A decoder whose WASM never finished loading has nothing to free
 * and throws from free(); that must not hide the error that brought us here.
 */
export function freeDecoder(decoder: { free(): unknown }): void {
  try {
    decoder.free();
  } catch {
    // never initialised: nothing was allocated
  }
}
