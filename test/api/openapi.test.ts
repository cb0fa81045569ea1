import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { startServer, type TestServer } from '../helpers/server.ts';

/** The statuses the API document lists for each operation ("Endpoints"), and nothing else. */
const ALLOWED_STATUSES: Record<string, { path: string; statuses: number[] }> = {
  listSampleSounds: { path: '/api/v1/sounds/sample', statuses: [200, 500] },
  streamSampleSound: { path: '/api/v1/sounds/sample/{id}/stream', statuses: [200, 404, 500] },
  searchSounds: { path: '/api/v1/sounds', statuses: [200, 400, 401, 403, 429, 500] },
  listPopularSounds: { path: '/api/v1/sounds/popular', statuses: [200, 401, 403, 429, 500] },
  getSound: { path: '/api/v1/sounds/{id}', statuses: [200, 401, 403, 404, 429, 500] },
  // With the 400 of a bad rendition or format parameter, which the operator contract fixes.
  streamSound: { path: '/api/v1/sounds/{id}/stream', statuses: [200, 400, 401, 403, 404, 429, 500] },
  downloadSound: { path: '/api/v1/sounds/{id}/download', statuses: [200, 400, 401, 403, 404, 429, 500] },
  // Extensions (tag `extensions`), with the statuses their issue fixes.
  findSimilarSounds: { path: '/api/v1/sounds/{id}/similar', statuses: [200, 401, 403, 404, 429, 500] },
  getSoundWaveform: { path: '/api/v1/sounds/{id}/waveform', statuses: [200, 401, 403, 404, 429, 500] },
  listCatalogChanges: { path: '/api/v1/changes', statuses: [200, 400, 401, 403, 410, 429, 500] },
  getPack: { path: '/api/v1/packs', statuses: [200, 400, 401, 403, 404, 429, 500] },
  getSoundWaveformPng: {
    path: '/api/v1/sounds/{id}/waveform.png',
    statuses: [200, 304, 400, 401, 403, 404, 429, 500, 503],
  },
  getSoundSpectrogramPng: {
    path: '/api/v1/sounds/{id}/spectrogram.png',
    statuses: [200, 304, 400, 401, 403, 404, 429, 500, 503],
  },
};

/**
 * The document minus what its marks call additions to 1.0.0: operations tagged `extensions`,
 * components and parameters marked `x-extension`, enum values listed in `x-extension-values`, and
 * response and component properties that refer to an extension component, alone or with null.
 */
function withoutExtensions(document: any): any {
  const copy = structuredClone(document);
  const extensionComponents = new Set(
    Object.entries(copy.components.schemas)
      .filter(([, schema]: [string, any]) => schema['x-extension'])
      .map(([name]) => `#/components/schemas/${name}`),
  );
  for (const ref of extensionComponents) delete copy.components.schemas[ref.split('/').pop()!];
  // A field of a 1.0.0 component whose shape is an extension (Sound.loop: a Loop or null).
  const isExtensionField = (property: any) =>
    extensionComponents.has(property.$ref) ||
    (property.anyOf?.length === 2 &&
      property.anyOf.some((part: any) => extensionComponents.has(part.$ref)) &&
      property.anyOf.some((part: any) => part.type === 'null'));
  for (const schema of Object.values(copy.components.schemas) as any[]) {
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (!isExtensionField(property)) continue;
      delete schema.properties[name];
      schema.required = schema.required?.filter((field: string) => field !== name);
    }
  }
  copy.tags = copy.tags.filter((tag: { name: string }) => tag.name !== 'extensions');
  for (const [route, methods] of Object.entries(copy.paths) as Array<[string, Record<string, any>]>) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation.tags.includes('extensions')) {
        delete methods[method];
        continue;
      }
      operation.parameters = operation.parameters?.filter((parameter: any) => !parameter.schema['x-extension']);
      for (const { schema } of operation.parameters ?? []) {
        if (!schema['x-extension-values']) continue;
        schema.enum = schema.enum.filter((value: string) => !schema['x-extension-values'].includes(value));
        delete schema['x-extension-values'];
      }
      for (const response of Object.values(operation.responses) as any[]) {
        const properties = response.content?.['application/json']?.schema?.properties ?? {};
        for (const [name, property] of Object.entries(properties) as Array<[string, any]>) {
          if (extensionComponents.has(property.$ref)) delete properties[name];
          // A property extended by an addition is the original: allOf, the original and the extension's
          // fields; anyOf, the original or the extension's shape (a pagination with a cursor).
          const kept = (property.allOf ?? property.anyOf)?.filter((part: any) => !extensionComponents.has(part.$ref));
          if (kept?.length === 1) properties[name] = kept[0];
        }
      }
    }
    if (Object.keys(methods).length === 0) delete copy.paths[route];
  }
  return copy;
}

describe('openapi', () => {
  let server: TestServer;
  let document: any;
  before(async () => {
    server = await startServer();
    document = await (await server.get('/openapi.json')).json();
  });
  after(() => server.close());

  test('openapi.valid: the document is valid OpenAPI 3.1, version 1.0.0', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
    assert.equal(document.info.version, '1.0.0');
  });

  test('openapi.statuses: each operation lists exactly the statuses the API document allows', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]: [string, any]) =>
      Object.values(methods).map((operation: any) => ({ path, operation })),
    );
    assert.equal(operations.length, Object.keys(ALLOWED_STATUSES).length);
    for (const { path, operation } of operations) {
      const expected = ALLOWED_STATUSES[operation.operationId];
      assert.ok(expected, `unexpected operation ${operation.operationId}`);
      assert.equal(path, expected.path);
      assert.deepEqual(Object.keys(operation.responses).map(Number).sort(), expected.statuses);
      const original = Object.keys(ALLOWED_STATUSES).indexOf(operation.operationId) < 7;
      assert.deepEqual(
        operation.tags,
        original ? operation.tags : ['extensions'],
        `${operation.operationId} is tagged extensions`,
      );
    }
  });

  test('openapi.shapes: security, parameters and shared component schemas are published', () => {
    const search = document.paths['/api/v1/sounds'].get;
    assert.deepEqual(search.security, [{ ApiKey: [] }]);
    assert.deepEqual(document.components.securitySchemes.ApiKey, { type: 'apiKey', in: 'header', name: 'x-api-key' });
    assert.deepEqual(
      search.parameters.map((p: { name: string }) => p.name),
      [
        'q',
        'category',
        'tags',
        'min_duration',
        'max_duration',
        'max_onset_ms',
        'min_lufs',
        'max_lufs',
        'loop',
        'updated_since',
        'cursor',
        'facets',
        'sort',
        'order',
        'page',
        'limit',
      ],
    );
    const limit = search.parameters.find((p: { name: string }) => p.name === 'limit');
    assert.deepEqual(limit.schema, { default: 20, type: 'integer', minimum: 1, maximum: 100 });
    assert.deepEqual(document.paths['/api/v1/sounds/sample'].get.security, []);
    for (const name of [
      'SoundSummary',
      'Sound',
      'PopularSound',
      'Pagination',
      'StreamResult',
      'DownloadResult',
      'Error',
      'ValidationError',
      'QuotaExceededError',
    ]) {
      assert.ok(document.components.schemas[name], name);
    }
    assert.ok(search.responses['200'].headers['X-RateLimit-Remaining']);
    assert.ok(search.responses['429'].headers['Retry-After']);
  });

  test('openapi.yaml: the YAML form is the same document', async () => {
    const response = await server.get('/openapi.yaml');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /yaml/);
    assert.deepEqual(parse(await response.text()), document);
  });

  test('openapi.unchanged: without its marked extensions, the document is the one published for 1.0.0', async () => {
    const published = JSON.parse(
      await readFile(path.join(import.meta.dirname, 'fixtures/openapi-document.json'), 'utf8'),
    );
    assert.deepStrictEqual({ ...withoutExtensions(document), servers: published.servers }, published);
    assert.deepStrictEqual(document.servers, [{ url: server.url }]);
  });

  test('docs.local: the reference page loads its scripts and styles from this server only', async () => {
    const response = await server.get('/docs');
    assert.equal(response.status, 200);
    const page = await response.text();
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => new URL(match[1]!, response.url));
    assert.ok(sources.length >= 3);
    for (const source of sources) {
      assert.equal(source.origin, server.url, source.href);
      assert.equal((await fetch(source)).status, 200, source.href);
    }
  });
});
