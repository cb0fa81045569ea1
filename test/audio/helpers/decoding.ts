/** What the decode tests expect of a file the decoder must refuse. */
import assert from 'node:assert/strict';
import { DecodeError, decodeAudio } from '../../../src/audio/decode/index.ts';

/** Decoding `bytes` fails with a DecodeError whose message matches `reason`: never another error. */
export async function assertDecodeRejects(bytes: Uint8Array, reason: RegExp, fileName?: string): Promise<void> {
  await assert.rejects(decodeAudio(bytes, fileName), (error: unknown) => {
    assert.ok(error instanceof DecodeError, `expected a DecodeError, got ${String(error)}`);
    assert.match(error.message, reason);
    return true;
  });
}
