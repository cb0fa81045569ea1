import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProgress } from '../../src/ingest/progress.ts';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WriteStream };
}

test('progress.terminal: a bar redrawn in place, ending on a new line', () => {
  const { writes, stream } = fakeStream(true);
  const progress = createProgress('files', stream);
  progress.start(4);
  for (let i = 0; i < 4; i++) progress.advance();
  progress.finish();
  assert.ok(writes.length >= 2);
  for (const write of writes.slice(0, -1)) assert.match(write, /^\r\[[#.]{30}\] \d+\/4 files /);
  assert.match(writes.at(-2)!, /^\r\[#{30}\] 4\/4 files /);
  assert.equal(writes.at(-1), '\n');
});

test('progress.plain: without a terminal, whole lines and no control characters', () => {
  const { writes, stream } = fakeStream(false);
  const progress = createProgress('sounds', stream);
  progress.start(3);
  for (let i = 0; i < 3; i++) progress.advance();
  progress.finish();
  assert.equal(writes.length, 1, 'a fast job prints its one final line');
  assert.match(writes[0]!, /^3\/3 sounds {2}[\d.]+\/s {2}[\d.]+s\n$/);
  assert.doesNotMatch(writes.join(''), /[\r\u001b]/);
});
