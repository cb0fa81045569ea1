/** The module `wat` describes, as bytes. */
export function wasmFromWat(wat: string): Promise<Buffer>;
