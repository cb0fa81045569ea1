/**
 * Searches as clients send them, for the API benchmark: words of the catalog (bench/fill-catalog.ts)
 * asked with Zipf frequencies, sometimes cut short or down to one or two letters, and every other
 * parameter of the search endpoint in use.
 */
import { ACTIONS, CONTEXTS, QUALITIES, SOURCES } from '../packages/catalog-index/bench/vocabulary.ts';

// One seeded generator for every benchmark, the engine's and the service's.
import { generator } from '../packages/catalog-index/bench/synthetic.ts';

export { generator };
export type Generator = ReturnType<typeof generator>;

const WORD_LISTS = [SOURCES, SOURCES, QUALITIES, ACTIONS, CONTEXTS];
const CATEGORY_NAMES = ['sfx', 'SFX', 'ambient', 'music', 'lofi', 'AMBIENT'];
const SORTS = ['downloads', 'created_at', 'duration', 'name'];

/** `count` different search paths (no key), in a random order; pick them with `zipf` for a Zipf mix. */
export function queryMix(random: Generator, count: number): string[] {
  const seen = new Set<string>();
  while (seen.size < count) seen.add(randomQuery(random));
  return [...seen];
}

/**
 * The realistic mix's next request: a download one time in ten (of `ids`, with Zipf), else a search of `mix` (with
 * Zipf).
 */
export function realisticRequest(random: Generator, mix: string[], ids: string[]): string {
  return random.next() < 0.1 ? `/api/v1/sounds/${random.zipf(ids)}/download` : random.zipf(mix);
}

/** A similar-sounds request for one of `ids` (with Zipf), at one of the limits clients ask for. */
export function similarRequest(random: Generator, ids: string[]): string {
  return `/api/v1/sounds/${random.zipf(ids)}/similar?limit=${random.pick([5, 10, 10, 20, 50])}`;
}

/**
 * The mix with the additions' next request: a download one time in ten, a similar-sounds request one in ten, else a
 * search of `extensions` (with Zipf).
 */
export function additionsRequest(random: Generator, extensions: string[], ids: string[]): string {
  const roll = random.next();
  return roll < 0.1
    ? `/api/v1/sounds/${random.zipf(ids)}/download`
    : roll < 0.2
      ? similarRequest(random, ids)
      : random.zipf(extensions);
}

/** A search path never returned before by this function (for a mix where no query repeats). */
export function neverAskedQuery(random: Generator, asked: Set<string>): string {
  for (;;) {
    const query = randomQuery(random);
    if (!asked.has(query)) return (asked.add(query), query);
  }
}

/** One search as a client might send it: its words, filters, order and page all drawn at random. */
export function randomQuery(random: Generator): string {
  const word = () => {
    const whole = random.zipf(random.pick(WORD_LISTS));
    const roll = random.next();
    if (roll < 0.1) return whole.slice(0, 3 + Math.floor(random.next() * 3));
    if (roll < 0.16) return whole.slice(0, 1 + Math.floor(random.next() * 2));
    return whole;
  };
  const query = new URLSearchParams();
  if (random.next() < 0.9) query.set('q', random.next() < 0.65 ? word() : `${word()} ${word()}`);
  if (random.next() < 0.15)
    query.set(
      'category',
      random.next() < 0.7
        ? random.pick(CATEGORY_NAMES)
        : `${random.pick(CATEGORY_NAMES)},${random.pick(CATEGORY_NAMES)}`,
    );
  if (random.next() < 0.15)
    query.set('tags', random.next() < 0.8 ? random.zipf(CONTEXTS) : `${random.zipf(SOURCES)},${random.zipf(CONTEXTS)}`);
  const min = random.next() < 0.08 ? random.pick([0.5, 1, 2, 5, 10, 30]) : undefined;
  const max = random.next() < 0.12 ? random.pick([0.5, 1, 2, 3, 5, 10, 60, 300]) : undefined;
  if (min !== undefined) query.set('min_duration', String(min));
  if (max !== undefined && (min === undefined || max >= min)) query.set('max_duration', String(max));
  if (random.next() < 0.5) query.set('sort', random.pick(SORTS));
  if (random.next() < 0.25) query.set('order', 'asc');
  if (random.next() < 0.15) query.set('page', String(2 + Math.floor(random.next() * 4)));
  if (random.next() < 0.4) query.set('limit', String(random.pick([5, 10, 50, 100])));
  return `/api/v1/sounds?${query.toString().replaceAll('+', '%20')}`;
}

/**
 * A search that also uses the additions beyond the API document (issue 16): relevance order for
 * a good share of keyword searches, facets, onset and loudness bounds.
 */
export function extensionQuery(random: Generator): string {
  const url = new URL(randomQuery(random), 'http://bench');
  const query = url.searchParams;
  if (query.has('q') && random.next() < 0.4) query.set('sort', 'relevance');
  if (random.next() < 0.15)
    query.set('facets', random.next() < 0.5 ? 'category,tags' : random.pick(['category', 'tags']));
  if (random.next() < 0.1) query.set('max_onset_ms', String(random.pick([5, 10, 20, 50])));
  if (random.next() < 0.1) {
    const low = random.pick([-30, -24, -20, -16]);
    query.set('min_lufs', String(low));
    query.set('max_lufs', String(low + random.pick([4, 8, 12])));
  }
  return `/api/v1/sounds?${query.toString().replaceAll('+', '%20')}`;
}

/** `count` different extension searches, like `queryMix`. */
export function extensionMix(random: Generator, count: number): string[] {
  const seen = new Set<string>();
  while (seen.size < count) seen.add(extensionQuery(random));
  return [...seen];
}
