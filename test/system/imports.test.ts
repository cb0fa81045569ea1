import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/** The rule for imports (docs/architecture.md), checked on the sources as they are. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'packages/catalog-index/src'];
const FRONT_DOORS = ['src/api/', 'src/mcp/', 'src/dashboard/'];

/** Every source file and the source files it imports (relative imports, types included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of SOURCES) {
    for (const entry of readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|js)$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
      const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
      const source = readFileSync(path.join(ROOT, file), 'utf8');
      const specifiers = [
        ...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g),
      ].map((match) => match[1] ?? match[2]!);
      graph.set(
        file,
        specifiers.map((specifier) =>
          specifier.startsWith('.')
            ? path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), specifier))
            : specifier,
        ),
      );
    }
  }
  return graph;
}

const graph = importGraph();

test('imports.no-circle: no file reaches itself through its imports', () => {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string): void => {
    if (state.get(file) === 'done' || !graph.has(file)) return;
    if (state.get(file) === 'open')
      assert.fail(`a circle: ${[...trail.slice(trail.indexOf(file)), file].join(' -> ')}`);
    state.set(file, 'open');
    trail.push(file);
    for (const imported of graph.get(file)!) visit(imported);
    trail.pop();
    state.set(file, 'done');
  };
  assert.ok(graph.size > 200);
  for (const file of graph.keys()) visit(file);
});

test('imports.front-doors: REST, MCP and the dashboard never import each other', () => {
  for (const [file, imports] of graph) {
    const door = FRONT_DOORS.find((folder) => file.startsWith(folder));
    if (!door) continue;
    for (const imported of imports) {
      const other: string | undefined = FRONT_DOORS.find((folder) => folder !== door && imported.startsWith(folder));
      assert.equal(other, undefined, `${file} imports ${imported}`);
    }
  }
});

test(
  'imports.engine: the service reaches the engine only ' + 'through its entry point, and the engine knows no service',
  () => {
    for (const [file, imports] of graph) {
      for (const imported of imports) {
        if (file.startsWith('src/')) assert.ok(!imported.startsWith('packages/'), `${file} imports ${imported}`);
        if (file.startsWith('packages/')) assert.ok(!imported.startsWith('src/'), `${file} imports ${imported}`);
      }
    }
    const users = [...graph].filter(([, imports]) => imports.includes('@sound-catalog/catalog-index'));
    assert.ok(users.length > 0);
  },
);
