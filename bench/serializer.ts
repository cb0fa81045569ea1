/**
 * Writing one search answer, in process:  node --import tsx bench/serializer.ts
 * Fastify's compiled serializer (fast-json-stringify) given the JSON Schema of the search
 * endpoint's 200 schema (what every answer is written with: api/serializer.ts), against plain
 * JSON.stringify and fastify-type-provider-zod's serializer (zod encode, then JSON.stringify), on
 * pages of 20 and 100 sounds, each answer then encoded to bytes as the server sends it. Prints
 * microseconds of CPU per answer (medians of 15 rounds), the time to build the page taken off.
 *
 * Each answer is a new page, as in the server: its strings decoded from bytes as the engine hands
 * them out, its URLs joined for this answer, its numbers varied. Writing one page again and again
 * (the second figure) flatters the writers that convert in JavaScript: V8 flattens a joined string
 * once and keeps numbers' strings in a cache, so the repeats skip that work.
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

// The text of a sound as stored: decoded into new strings for each answer.
const TEXT = Buffer.from(
  'Laser blast|A short bright laser shot with a fast decay, for sci-fi games and UI.|laser|sci-fi',
);
const part = (start: number, end: number) => TEXT.toString('utf8', start, end);

function sound(i: number, answer: number): SoundBody {
  const id = `snd_${(answer * 100 + i).toString(36).padStart(10, '0')}`;
  const query = `exp=${1767225600 + answer}&kid=k1&sig=${'A'.repeat(43)}`;
  const step = (answer % 1000) / 1000;
  return {
    id,
    name: `${part(0, 11)} ${i}`,
    description: part(12, 81),
    tags: [part(82, 87), part(88, 94)],
    duration: 0.84 + step,
    stream_url: `http://127.0.0.1:3000/media/${id}.mp3?d=stream&${query}`,
    download_url: `http://127.0.0.1:3000/media/${id}.mp3?d=download&${query}`,
    category: 'SFX',
    license: 'CC0',
    timing: { onset_ms: 1.2 + step, peak_ms: 14.5 + i, tail_ms: 610.3 - step },
    loudness: { integrated_lufs: -14.2 - step, true_peak_db: -1.1 - i / 10 },
    loop: null,
  };
}

function page(size: number, answer: number) {
  return {
    data: Array.from({ length: size }, (_, i) => sound(i, answer)),
    pagination: { page: 1, limit: size, total: 5000, totalPages: 5000 / size },
  };
}

/** Microseconds of CPU per call of `write` over `count` answers (CPU time moves less than wall time with other work). */
function time(count: number, next: () => unknown, write: (body: unknown) => unknown): number {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) write(next());
  const { user, system } = process.cpuUsage(started);
  return (user + system) / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// Rounds alternate the writers, so a busy moment of the machine falls on each alike.
for (const size of [20, 100]) {
  const count = 20_000 / size;
  let answer = 0;
  const fresh = () => page(size, answer++);
  const same = page(size, 0);
  const sends = Object.entries(writers).map(
    ([name, write]) => [name, (body: unknown) => Buffer.from(write(body))] as const,
  );
  for (const [, send] of sends) time(count, fresh, send);
  const building: number[] = [];
  const times = new Map(sends.map(([name]) => [name, { fresh: [] as number[], same: [] as number[] }]));
  for (let round = 0; round < 15; round++) {
    building.push(time(count, fresh, () => undefined));
    for (const [name, send] of sends) {
      times.get(name)!.fresh.push(time(count, fresh, send));
      times.get(name)!.same.push(time(count, () => same, send));
    }
  }
  for (const [name, send] of sends) {
    const { fresh: newPages, same: onePage } = times.get(name)!;
    console.log(
      `${size} sounds, ${name}: ${(median(newPages) - median(building)).toFixed(1)} us per answer, ` +
        `${median(onePage).toFixed(1)} us writing one page again (${send(same).length} bytes)`,
    );
  }
}
