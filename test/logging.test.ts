import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const FIXTURE = path.join(import.meta.dirname, 'fixtures/log-then-exit.ts');

function linesLogged(turns: number, perTurn: number, end: 'exit' | 'natural'): number[] {
  const result = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, String(turns), String(perTurn), end], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line).n as number);
}

test('log.exit: lines logged in the turn that calls process.exit are written, in order', () => {
  assert.deepEqual(
    linesLogged(1, 500, 'exit'),
    Array.from({ length: 500 }, (_, i) => i),
  );
});

test('log.turns: lines from many turns, written while earlier writes are under way, arrive whole and in order', () => {
  assert.deepEqual(
    linesLogged(200, 50, 'natural'),
    Array.from({ length: 10_000 }, (_, i) => i),
  );
});
