/** A RIFF WAVE file's chunks by id, read by the test alone (not by the writer's code): id, payload. */
export function riffChunks(bytes: Uint8Array): Array<{ id: string; payload: Buffer }> {
  const file = Buffer.from(bytes);
  if (file.toString('latin1', 0, 4) !== 'RIFF' || file.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error('not WAVE');
  const chunks: Array<{ id: string; payload: Buffer }> = [];
  for (let at = 12; at + 8 <= file.length; ) {
    const id = file.toString('latin1', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    chunks.push({ id, payload: file.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size % 2);
  }
  return chunks;
}

/** The sub-chunks of a LIST payload (after its 4-byte type). */
export function listItems(payload: Buffer): Array<{ id: string; text: Buffer }> {
  const items: Array<{ id: string; text: Buffer }> = [];
  for (let at = 4; at + 8 <= payload.length; ) {
    const size = payload.readUInt32LE(at + 4);
    items.push({ id: payload.toString('latin1', at, at + 4), text: payload.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size % 2);
  }
  return items;
}

/** A zero-terminated, zero-padded field as text. */
export function zstring(bytes: Buffer, encoding: BufferEncoding = 'latin1'): string {
  const end = bytes.indexOf(0);
  return bytes.toString(encoding, 0, end < 0 ? bytes.length : end);
}
