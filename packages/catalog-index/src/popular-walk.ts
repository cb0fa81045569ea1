import type { SearchFilters, SearchPage } from './query.ts';
import type { Sound } from './sound.ts';
import { byText } from './sort-order.ts';

/**
 * Walks of the download ranking (list_popular and GET /api/v1/sounds/popular with a cursor).
 *
 * The ranking is the popular list's order: highest download count first, ties by id from the
 * last to the first. A walk's cursor is the last sound it listed, as its count then and its id;
 * each page is the next sounds below that place in the ranking as it is when the page is read.
 *
 * What this makes stable, while counts change: counts only go up, so a sound already listed stays
 * above the cursor and is never listed again; a sound present from the walk's start to its end
 * whose count stays below the walk's place is listed exactly once; a sound downloaded during the
 * walk until it climbs above the place the walk has reached is not listed by that walk (it now
 * ranks among the sounds already passed). Exactly once for those too would need every sound's
 * count as it was when the walk began, which nothing keeps; a walk of search (row key order) is
 * the one that lists every sound exactly once.
 */

/** Where a walk has reached: the last sound it listed, with its count when listed. */
export interface RankPlace {
  downloads: number;
  id: string;
}

export interface RankPage {
  items: Sound[];
  /** Every sound of the catalog: the ranking holds them all. */
  total: number;
  /** Where the next page starts; null when this page reached the end of the ranking. */
  next: RankPlace | null;
}

/** Reads a page of search: the catalog service's search, or an index's in tests. */
export type RankedSearch = (filters: SearchFilters) => Promise<SearchPage> | SearchPage;

/** Below the place in the ranking: fewer downloads, or as many and an id before (ties read from the last id). */
function isBelow(sound: Sound, place: RankPlace): boolean {
  return (
    sound.numDownloads < place.downloads || (sound.numDownloads === place.downloads && byText(sound.id, place.id) < 0)
  );
}

/**
 * The `limit` sounds after `after` in the ranking (from its top when null). The whole catalog in
 * download order is a search without filters sorted by downloads, whose pages the index reads
 * straight out of its downloads order; the first sound below the cursor is found by bisecting
 * that order with pages of one sound (log₂ of the catalog's size of them), then its page read.
 * The index answers at once, without I/O, so the ranking does not move between these reads; the
 * page is checked against the cursor all the same.
 */
export async function popularWalk(search: RankedSearch, after: RankPlace | null, limit: number): Promise<RankPage> {
  const ranked = (page: number, size: number) =>
    search({ words: [], categories: [], tags: [], sort: 'downloads', order: 'desc', page, limit: size });
  // One more than the page tells whether the walk goes on.
  const size = limit + 1;
  let items: Sound[];
  let total: number;
  if (after === null) {
    ({ items, total } = await ranked(1, size));
  } else {
    total = (await ranked(1, 1)).total;
    let from = 0;
    for (let to = total; from < to; ) {
      const middle = (from + to) >>> 1;
      const [sound] = (await ranked(middle + 1, 1)).items;
      if (sound !== undefined && !isBelow(sound, after)) from = middle + 1;
      else to = middle;
    }
    // Pages of `size` are numbered from 1: the two that hold places [from, from + size).
    const first = Math.floor(from / size);
    const [one, two] = [await ranked(first + 1, size), await ranked(first + 2, size)];
    items = [...one.items, ...two.items]
      .slice(from - first * size)
      .filter((sound) => isBelow(sound, after))
      .slice(0, size);
  }
  const more = items.length > limit;
  if (more) items.pop();
  const last = items[items.length - 1];
  return { items, total, next: more && last ? { downloads: last.numDownloads, id: last.id } : null };
}

const CURSOR_KIND = 'p1';

/** A place as an opaque cursor (base64url), of a kind no other walk gives out. */
export function encodeRankCursor(place: RankPlace): string {
  return Buffer.from(`${CURSOR_KIND}.${place.downloads}.${place.id}`).toString('base64url');
}

/**
 * A cursor back to its place: null for the empty cursor (the top), undefined for anything this
 * walk did not give out (read back only in its canonical form). A forged one names only a place.
 */
export function decodeRankCursor(text: string): RankPlace | null | undefined {
  if (text === '') return null;
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const match = /^p1\.(0|[1-9][0-9]{0,14})\.(.+)$/s.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (match === null) return undefined;
  const place = { downloads: Number(match[1]), id: match[2]! };
  return encodeRankCursor(place) === text ? place : undefined;
}
