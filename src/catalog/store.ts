import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/index.ts';
import type { SqlDialect } from '../db/dialects/types.ts';
import type { Database, SoundsTable } from '../db/schema.ts';
import { ResultCache } from './result-cache.ts';
import type { Category, Page, SampleFilters, SearchFilters, Sound, SortField } from './sound.ts';

const SORT_COLUMNS: Record<SortField, 'num_downloads' | 'created_at' | 'duration' | 'name'> = {
  downloads: 'num_downloads',
  created_at: 'created_at',
  duration: 'duration',
  name: 'name',
};

/** Every column a Sound is made of (the waveform is read on its own, it is large). */
const SOUND_COLUMNS = [
  'id', 'name', 'description', 'tags', 'category', 'license', 'duration', 'onset_ms', 'peak_ms', 'tail_ms',
  'integrated_lufs', 'true_peak_db', 'num_downloads', 'is_sample', 'file_key', 'file_size', 'content_hash', 'created_at',
] as const;

type SoundRow = Pick<Selectable<SoundsTable>, (typeof SOUND_COLUMNS)[number]>;
type Where = (eb: ExpressionBuilder<Database, 'sounds'>) => Expression<SqlBool>;

/** Reads the catalog. Writes that come with ingest live in `ingest/`; counts live here. */
export class CatalogStore {
  /**
   * Cached list answers, in two parts: those ordered by download counts (popular, searches sorted
   * by downloads), which every download clears, and the rest, which only catalog writes clear.
   * At most 10,000 sounds each: a few MB, whatever page sizes callers ask for.
   */
  private readonly byDownloads = new ResultCache<Page<Sound>>({ capacity: 10_000, weigh: (page) => page.items.length + 1 });
  private readonly lists = new ResultCache<Page<Sound>>({ capacity: 10_000, weigh: (page) => page.items.length + 1 });
  /** Sounds by id (details, stream and download URLs, media), cleared by downloads too. */
  private readonly sounds = new ResultCache<Sound | null>({ capacity: 10_000 });

  constructor(
    private readonly db: Db,
    /** Where list queries that miss the cache run (off the event loop on SQLite: db/reader.ts). */
    private readonly slowReads: Db,
    private readonly dialect: SqlDialect,
    private readonly externalChanges: () => Promise<number>,
  ) {}

  private async cached(cache: ResultCache<Page<Sound>>, key: string, load: () => Promise<Page<Sound>>): Promise<Page<Sound>> {
    return cache.getOrLoad(key, await this.externalChanges(), load);
  }

  /** True while this page is still the catalog's answer to the query it was loaded for. */
  async isCurrent(page: Page<Sound>): Promise<boolean> {
    const version = await this.externalChanges();
    return this.lists.holds(page, version) || this.byDownloads.holds(page, version);
  }

  /** True while this sound, as `findById` gave it, is still the catalog's. */
  async isCurrentSound(sound: Sound): Promise<boolean> {
    return this.sounds.holds(sound, await this.externalChanges());
  }

  /** Forgets cached list answers; called after every catalog write this process makes. */
  changed(): void {
    this.byDownloads.clear();
    this.lists.clear();
    this.sounds.clear();
  }

  search(filters: SearchFilters): Promise<Page<Sound>> {
    const cache = filters.sort === 'downloads' ? this.byDownloads : this.lists;
    return this.cached(cache, `search:${JSON.stringify(filters)}`, () => this.searchUncached(filters));
  }

  private async searchUncached(filters: SearchFilters): Promise<Page<Sound>> {
    const where: Where = (eb) => {
      const conditions: Expression<SqlBool>[] = [];
      if (filters.words.length > 0) conditions.push(this.dialect.matchWords(filters.words));
      if (filters.categories.length > 0) conditions.push(eb('sounds.category', 'in', filters.categories));
      for (const tag of filters.tags) {
        conditions.push(eb.exists(eb.selectFrom('sound_tags').select(sql.lit(1).as('one'))
          .whereRef('sound_tags.sound_seq', '=', 'sounds.seq').where('sound_tags.tag', '=', tag)));
      }
      if (filters.minDuration !== undefined) conditions.push(eb('sounds.duration', '>=', filters.minDuration));
      if (filters.maxDuration !== undefined) conditions.push(eb('sounds.duration', '<=', filters.maxDuration));
      return eb.and(conditions);
    };
    const column = SORT_COLUMNS[filters.sort];
    // The match is counted and ordered on a few columns (count(*) OVER () gives the total in the
    // same pass); whole rows are read for the page only. Sorting every match with all its columns
    // cost a third more at 100,000 sounds, where a two-word query can match thousands.
    const page = this.slowReads.selectFrom('sounds')
      .select((eb) => ['sounds.seq', eb.fn.countAll<number | string>().over().as('total')]).where(where)
      .orderBy(`sounds.${column}`, filters.order).orderBy('sounds.id', filters.order)
      .limit(filters.limit).offset((filters.page - 1) * filters.limit).as('page');
    const rows = await this.slowReads.selectFrom(page).innerJoin('sounds', 'sounds.seq', 'page.seq')
      .select(SOUND_COLUMNS.map((name) => `sounds.${name}` as const)).select('page.total')
      .orderBy(`sounds.${column}`, filters.order).orderBy('sounds.id', filters.order).execute();
    // A page past the end has no row to carry the total: count on its own then.
    const total = rows.length > 0 ? Number(rows[0]!.total) : filters.page > 1 ? await this.count(where, this.slowReads) : 0;
    return { items: rows.map(toSound), total };
  }

  samples(filters: SampleFilters): Promise<Page<Sound>> {
    return this.cached(this.lists, `samples:${JSON.stringify(filters)}`, () => this.samplesUncached(filters));
  }

  private async samplesUncached(filters: SampleFilters): Promise<Page<Sound>> {
    const where: Where = (eb) => {
      const conditions: Expression<SqlBool>[] = [eb('sounds.is_sample', '=', 1)];
      // The sample list matches q on name and description only (API document, endpoint 1).
      for (const word of filters.words) {
        conditions.push(sql<SqlBool>`instr(lower(sounds.name || ' ' || coalesce(sounds.description, '')), ${word}) > 0`);
      }
      if (filters.tags.length > 0) {
        conditions.push(eb.exists(eb.selectFrom('sound_tags').select(sql.lit(1).as('one'))
          .whereRef('sound_tags.sound_seq', '=', 'sounds.seq').where('sound_tags.tag', 'in', filters.tags)));
      }
      return eb.and(conditions);
    };
    const [rows, total] = await Promise.all([
      this.db.selectFrom('sounds').select(SOUND_COLUMNS).where(where).orderBy('sounds.id').limit(filters.limit).execute(),
      this.count(where),
    ]);
    return { items: rows.map(toSound), total };
  }

  popular(limit: number): Promise<Page<Sound>> {
    return this.cached(this.byDownloads, `popular:${limit}`, () => this.popularUncached(limit));
  }

  private async popularUncached(limit: number): Promise<Page<Sound>> {
    const [rows, total] = await Promise.all([
      this.db.selectFrom('sounds').select(SOUND_COLUMNS)
        .orderBy('num_downloads', 'desc').orderBy('id', 'desc').limit(limit).execute(),
      this.count((eb) => eb.and([])),
    ]);
    return { items: rows.map(toSound), total };
  }

  async findById(id: string): Promise<Sound | null> {
    return this.sounds.getOrLoad(id, await this.externalChanges(), async () => {
      const row = await this.db.selectFrom('sounds').select(SOUND_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row ? toSound(row) : null;
    });
  }

  async findSampleById(id: string): Promise<Sound | null> {
    const row = await this.db.selectFrom('sounds').select(SOUND_COLUMNS)
      .where('id', '=', id).where('is_sample', '=', 1).executeTakeFirst();
    return row ? toSound(row) : null;
  }

  async waveform(id: string): Promise<Array<[number, number]> | null> {
    const row = await this.db.selectFrom('sounds').select('waveform').where('id', '=', id).executeTakeFirst();
    return row?.waveform ? (JSON.parse(row.waveform) as Array<[number, number]>) : null;
  }

  /** Adds one download in a single statement, so concurrent downloads are never lost. */
  async countDownload(id: string): Promise<boolean> {
    const result = await this.db.updateTable('sounds')
      .set((eb) => ({ num_downloads: eb('num_downloads', '+', 1) })).where('id', '=', id).executeTakeFirst();
    // No list shows a download count but popular, and only it and searches by downloads are ordered
    // by one; a sound read by id carries its count.
    this.byDownloads.clear();
    this.sounds.clear();
    return result.numUpdatedRows > 0n;
  }

  /** Makes exactly these sounds the public samples; returns how many exist. Unknown ids are reported. */
  async setSamples(ids: string[]): Promise<{ samples: number; unknown: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      const found = ids.length === 0 ? [] : await trx.selectFrom('sounds').select('id').where('id', 'in', ids).execute();
      const known = new Set(found.map((row) => row.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) return { samples: 0, unknown };
      await trx.updateTable('sounds').set({ is_sample: 0 }).where('is_sample', '=', 1).execute();
      if (ids.length > 0) await trx.updateTable('sounds').set({ is_sample: 1 }).where('id', 'in', ids).execute();
      return { samples: known.size, unknown };
    }).finally(() => this.changed());
  }

  async size(): Promise<number> {
    return this.count((eb) => eb.and([]));
  }

  private async count(where: Where, db = this.db): Promise<number> {
    const row = await db.selectFrom('sounds').select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(where).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function toSound(row: SoundRow): Sound {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    category: row.category as Category | null,
    license: row.license,
    duration: row.duration,
    timing: { onset_ms: row.onset_ms, peak_ms: row.peak_ms, tail_ms: row.tail_ms },
    loudness: { integrated_lufs: row.integrated_lufs, true_peak_db: row.true_peak_db },
    numDownloads: Number(row.num_downloads),
    isSample: row.is_sample === 1,
    fileKey: row.file_key,
    fileSize: Number(row.file_size),
    contentHash: row.content_hash,
    createdAt: row.created_at,
  };
}
