import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { smplLoop, vorbisLoop } from '../../../src/ingest/tags/loop-tags.ts';
import { smplChunk } from '../helpers/smpl.ts';

const tags = (entries: Record<string, string>) => Object.entries(entries).map(([id, value]) => ({ id, value }));

describe('loop points read from tags', () => {
  test('loop-tags.smpl: the first loop, its end made exclusive; no loop, or a chunk cut short', () => {
    assert.deepEqual(smplLoop(smplChunk(10, 19)), { start: 10, end: 20, source: 'smpl' });
    const none = smplChunk(10, 19).subarray(0, 36);
    new DataView(none.buffer, none.byteOffset).setUint32(28, 0, true);
    assert.equal(smplLoop(none), null);
    assert.throws(() => smplLoop(smplChunk(10, 19).subarray(0, 40)), /counts loops but holds none/);
    assert.throws(() => smplLoop(new Uint8Array(20)), /shorter than its header/);
  });

  test('loop-tags.vorbis: LOOPSTART with LOOPLENGTH, LOOPEND or neither (to the end); names in any case', () => {
    assert.deepEqual(vorbisLoop(tags({ LOOPSTART: '5', LOOPLENGTH: '10' })), {
      loop: { start: 5, end: 15, source: 'vorbis' },
    });
    assert.deepEqual(vorbisLoop(tags({ loopstart: '5', loopend: '8' })), {
      loop: { start: 5, end: 8, source: 'vorbis' },
    });
    assert.deepEqual(vorbisLoop(tags({ LoopStart: ' 7 ' })), { loop: { start: 7, end: null, source: 'vorbis' } });
    assert.deepEqual(vorbisLoop(tags({ LOOPLENGTH: '10' })), { loop: null });
    assert.deepEqual(vorbisLoop(tags({ LOOPSTART: '5', LOOPLENGTH: '-1' })), {
      loop: null,
      note: 'loop ignored: LOOPLENGTH "-1" is no whole number of samples',
    });
  });
});
