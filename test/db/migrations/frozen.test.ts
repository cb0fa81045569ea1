import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const folder = path.join(import.meta.dirname, '../../../src/db/migrations');

/**
 * A released migration never changes: it imports Kysely and the migrations' own types, and no
 * code of the service's that a later change could rewrite (a dialect, a constant, a helper).
 */
test('migrations.frozen: every migration imports only kysely and the types of migrations/engine.ts', () => {
  const files = readdirSync(folder).filter((name) => /^\d{3}_.*\.ts$/.test(name));
  assert.ok(files.length >= 15);
  for (const file of files) {
    const source = readFileSync(path.join(folder, file), 'utf8');
    const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)].map((match) => ({
      type: Boolean(match[1]),
      from: match[2],
    }));
    for (const { type, from } of imports) {
      const allowed = from === 'kysely' || (type && from === './engine.ts');
      assert.ok(allowed, `${file} imports ${type ? 'types from ' : ''}${from}`);
    }
    assert.doesNotMatch(source, /\bimport\(/, `${file} imports at run time`);
  }
});
