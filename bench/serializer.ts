/**
 * Writing one search answer, in process:  node --import tsx bench/serializer.ts
 * Fastify's compiled serializer (fast-json-stringify) given the JSON Schema of the search
 * endpoint's 200 schema (what every answer is written with: api/serializer.ts), against plain
 * JSON.stringify and fastify-type-provider-zod's serializer (zod encode, then JSON.stringify), on
 * pages of 20 and 100 sounds as the search endpoint sends them. Prints microseconds per answer.
 * What this cannot show: the garbage each writer leaves for the server's collector under load,
 * which a whole server shows (bench/api.ts, bench/pairs.ts), not this.
 */
import { serializerCompiler } from 'fastify-type-provider-zod';
import { compileSchemaWriter } from '../src/api/serializer.ts';
import { searchSounds } from '../src/api/sounds/search.ts';
import type { SoundBody } from '../src/shapes/schemas.ts';

const schema = searchSounds.responses[200].schema;
const route = { schema, method: 'GET', url: '/api/v1/sounds', httpStatus: '200' };
const writers = {
  'type-provider (zod encode + JSON.stringify)': serializerCompiler(route),
  'fast-json-stringify (api/serializer.ts)': compileSchemaWriter(schema),
  'JSON.stringify': (body: unknown) => JSON.stringify(body),
};

function sound(i: number): SoundBody {
  const id = `snd_${i.toString(36).padStart(10, '0')}`;
  const query = `exp=1767225600&kid=k1&sig=${'A'.repeat(22)}`;
  return {
    id,
    name: `Laser blast ${i}`,
    description: 'A short bright laser shot with a fast decay, for sci-fi games and UI.',
    tags: ['laser', 'sci-fi', 'weapon', 'shot'],
    duration: 0.84,
    stream_url: `http://127.0.0.1:3000/media/${id}.mp3?${query}`,
    download_url: `http://127.0.0.1:3000/media/${id}.mp3?d=download&${query}`,
    category: 'SFX',
    license: 'CC0',
    timing: { onset_ms: 1.2, peak_ms: 14.5, tail_ms: 610.3 },
    loudness: { integrated_lufs: -14.2, true_peak_db: -1.1 },
    loop: null,
  };
}

for (const size of [20, 100]) {
  const page = {
    data: Array.from({ length: size }, (_, i) => sound(i)),
    pagination: { page: 1, limit: size, total: 5000, totalPages: 5000 / size },
  };
  for (const [name, write] of Object.entries(writers)) {
    for (let i = 0; i < 2000; i++) write(page);
    const rounds: number[] = [];
    for (let round = 0; round < 5; round++) {
      const started = performance.now();
      for (let i = 0; i < 5000; i++) write(page);
      rounds.push(((performance.now() - started) * 1000) / 5000);
    }
    rounds.sort((a, b) => a - b);
    console.log(`${size} sounds, ${name}: median ${rounds[2]!.toFixed(1)} us per answer (${write(page).length} bytes)`);
  }
}
