/**
 * Made-up catalogs and searches for the benchmarks, as a sound library has them: names,
 * descriptions and tags drawn from a few hundred sound words with Zipf frequencies (a few very
 * common words and a long tail), durations per category, skewed download counts, descriptors
 * clustered by the sound's source; searches with every filter, order and page in use.
 */
import { createHash } from 'node:crypto';
import type { SearchFilters, SearchSort } from '../src/query.ts';
import type { CatalogRecord, Category } from '../src/sound.ts';
import { WEIGHTS } from '../test/helpers/vectors.ts';
import { ACTIONS, CONTEXTS, QUALITIES, SOURCES } from './vocabulary.ts';

export type Random = ReturnType<typeof generator>;

/** A small deterministic random generator (mulberry32): the same seed gives the same sequence. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** An item of `list`, the first ones far more often (Zipf, exponent 1). */
  const zipf = <T>(list: readonly T[]): T =>
    list[Math.min(list.length - 1, Math.floor(Math.exp(next() * Math.log(list.length + 1)) - 1))]!;
  return { next, zipf, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

const CATEGORY_DRAW: readonly Category[] = ['SFX', 'SFX', 'SFX', 'SFX', 'SFX', 'AMBIENT', 'MUSIC', 'LOFI'];
const title = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** `count` records (row keys 1 to count), in pages of `pageSize`, as a first load reads them. */
export function* catalogPages(count: number, seed = 1, pageSize = 10_000): Generator<CatalogRecord[]> {
  const { next, zipf, pick } = generator(seed);
  const centres = new Map<string, number[]>();
  const start = Date.UTC(2023, 0, 1);
  let page: CatalogRecord[] = [];
  for (let i = 0; i < count; i++) {
    const source = zipf(SOURCES);
    const category = pick(CATEGORY_DRAW);
    const name = [
      title(zipf(QUALITIES)),
      title(source),
      next() < 0.6 ? title(zipf(ACTIONS)) : '',
      next() < 0.5 ? String(1 + Math.floor(next() * 20)) : '',
    ]
      .filter(Boolean)
      .join(' ');
    const more = next() < 0.5 ? `, ${zipf(QUALITIES)} and ${zipf(QUALITIES)}` : '';
    const or = next() < 0.4 ? `or ${zipf(CONTEXTS)} ` : '';
    const description =
      next() < 0.1 ? null : `A ${zipf(QUALITIES)} ${source} ${zipf(ACTIONS)}${more}, for ${zipf(CONTEXTS)} ${or}scenes`;
    const tags = [
      ...new Set([
        source,
        zipf(CONTEXTS),
        ...(next() < 0.7 ? [zipf(QUALITIES)] : []),
        ...(next() < 0.4 ? [zipf(CONTEXTS)] : []),
      ]),
    ];
    // Seconds: sound effects mostly under 3 s, ambiences and music from half a minute to minutes.
    const duration = Math.round((category === 'SFX' ? Math.exp(next() * 4 - 2.5) : 20 + next() * 280) * 1000) / 1000;
    let centre = centres.get(source);
    if (!centre) {
      const random = generator(centres.size + 1000);
      centres.set(source, (centre = WEIGHTS.map(() => (random.next() - 0.5) * 6)));
    }
    page.push({
      seq: i + 1,
      id: createHash('sha256').update(`bench-${seed}-${i}`).digest('hex').slice(0, 16),
      name,
      description,
      tags,
      category,
      license: 'CC0',
      duration,
      timing: {
        onset_ms: Math.round(next() * 50),
        peak_ms: Math.round(next() * duration * 300),
        tail_ms: Math.round(duration * 900),
      },
      loudness: { integrated_lufs: -30 + next() * 22, true_peak_db: -6 + next() * 5.5 },
      numDownloads: Math.floor(Math.exp(next() * 9) - 1) * (next() < 0.3 ? 0 : 1),
      isSample: i < 24,
      loop: null,
      createdAt: new Date(start + Math.floor(next() * 3 * 365 * 86_400_000)).toISOString(),
      descriptors: centre.map((value) => value + (next() + next() + next() - 1.5) * 2),
    });
    if (page.length === pageSize) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

const WORD_LISTS = [SOURCES, SOURCES, QUALITIES, ACTIONS, CONTEXTS];
const CATEGORIES: readonly Category[] = ['SFX', 'SFX', 'AMBIENT', 'MUSIC', 'LOFI', 'AMBIENT'];
const SORTS: readonly SearchSort[] = ['downloads', 'created_at', 'duration', 'name'];

/**
 * One search as a client might send it: its words (sometimes cut short, or to one or two
 * letters), filters, order and page drawn at random; with `extensions`, relevance order, facets,
 * onset and loudness bounds too.
 */
export function randomSearch(random: Random, extensions: boolean): SearchFilters {
  const { next, zipf, pick } = random;
  const word = () => {
    const whole = zipf(pick(WORD_LISTS));
    const roll = next();
    if (roll < 0.1) return whole.slice(0, 3 + Math.floor(next() * 3));
    if (roll < 0.16) return whole.slice(0, 1 + Math.floor(next() * 2));
    return whole;
  };
  const filters: SearchFilters = {
    words: [],
    categories: [],
    tags: [],
    sort: 'downloads',
    order: 'desc',
    page: 1,
    limit: 20,
  };
  if (next() < 0.9) filters.words = next() < 0.65 ? [word()] : [word(), word()];
  if (next() < 0.15) {
    filters.categories = [...new Set(next() < 0.7 ? [pick(CATEGORIES)] : [pick(CATEGORIES), pick(CATEGORIES)])];
  }
  if (next() < 0.15) filters.tags = next() < 0.8 ? [zipf(CONTEXTS)] : [zipf(SOURCES), zipf(CONTEXTS)];
  const min = next() < 0.08 ? pick([0.5, 1, 2, 5, 10, 30]) : undefined;
  const max = next() < 0.12 ? pick([0.5, 1, 2, 3, 5, 10, 60, 300]) : undefined;
  if (min !== undefined) filters.minDuration = min;
  if (max !== undefined && (min === undefined || max >= min)) filters.maxDuration = max;
  if (next() < 0.5) filters.sort = pick(SORTS);
  if (next() < 0.25) filters.order = 'asc';
  if (next() < 0.15) filters.page = 2 + Math.floor(next() * 4);
  if (next() < 0.4) filters.limit = pick([5, 10, 50, 100]);
  if (!extensions) return filters;
  if (filters.words.length > 0 && next() < 0.4) filters.sort = 'relevance';
  if (next() < 0.15) filters.facets = next() < 0.5 ? ['category', 'tags'] : [pick(['category', 'tags'] as const)];
  if (next() < 0.1) filters.maxOnsetMs = pick([5, 10, 20, 50]);
  if (next() < 0.1) {
    filters.minLufs = pick([-30, -24, -20, -16]);
    filters.maxLufs = filters.minLufs + pick([4, 8, 12]);
  }
  return filters;
}

/** `count` different searches, to be picked with `zipf` for a mix where a few are asked most. */
export function searchMix(random: Random, count: number, extensions: boolean): SearchFilters[] {
  const seen = new Map<string, SearchFilters>();
  while (seen.size < count) {
    const filters = randomSearch(random, extensions);
    seen.set(JSON.stringify(filters), filters);
  }
  return [...seen.values()];
}
