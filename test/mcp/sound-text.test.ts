import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SoundBody } from '../../src/shapes/schemas.ts';
import { soundDetailText, soundLine, soundListText } from '../../src/mcp/sound-text.ts';

const sound: SoundBody = {
  id: 'abc',
  name: 'Wind Loop',
  description: null,
  tags: [],
  duration: 12.3456,
  stream_url: 'http://example.test/media/abc.mp3',
  category: null,
  license: 'CC0',
  timing: { onset_ms: null, peak_ms: null, tail_ms: null },
  loudness: { integrated_lufs: null, true_peak_db: null },
  loop: null,
};

describe('mcp.sound-text: the text rendering stays readable at the edges', () => {
  it('a silent, untagged, uncategorized sound still gets one clear line', () => {
    assert.equal(soundLine(sound), '- Wind Loop [id abc] · 12.35 s · no category · no tags · silent · no onset');
  });

  it('details say "none (silent)" rather than null', () => {
    assert.match(soundDetailText(sound), /timing: onset none \(silent\), peak none \(silent\), tail none \(silent\)/);
    assert.match(soundDetailText(sound), /loudness: none \(silent\) integrated, true peak none \(silent\)/);
  });

  it('a page past the end says how many pages there are', () => {
    assert.equal(
      soundListText([], { page: 5, limit: 20, total: 30, totalPages: 2 }),
      'No sounds on page 5; there are 2 pages.',
    );
  });
});
