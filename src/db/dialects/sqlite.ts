import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../schema.ts';
import type { SqlDialect } from './types.ts';

/** FTS5's trigram tokenizer indexes every 3-character run, which is what substring search needs. */
const MIN_INDEXED_LENGTH = 3;

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  autoIncrementType: 'integer',

  async createTextIndex(db: Kysely<Database>): Promise<void> {
    // External-content FTS table over sounds.search_text, kept in step by triggers.
    await sql`CREATE VIRTUAL TABLE sounds_fts USING fts5(
      search_text, content='sounds', content_rowid='seq', tokenize='trigram')`.execute(db);
    await sql`CREATE TRIGGER sounds_fts_insert AFTER INSERT ON sounds BEGIN
      INSERT INTO sounds_fts(rowid, search_text) VALUES (new.seq, new.search_text);
    END`.execute(db);
    await sql`CREATE TRIGGER sounds_fts_delete AFTER DELETE ON sounds BEGIN
      INSERT INTO sounds_fts(sounds_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
    END`.execute(db);
    await sql`CREATE TRIGGER sounds_fts_update AFTER UPDATE OF search_text ON sounds BEGIN
      INSERT INTO sounds_fts(sounds_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
      INSERT INTO sounds_fts(rowid, search_text) VALUES (new.seq, new.search_text);
    END`.execute(db);
  },

  matchWords(words: string[]): Expression<SqlBool> {
    const long = words.filter((word) => word.length >= MIN_INDEXED_LENGTH);
    const short = words.filter((word) => word.length < MIN_INDEXED_LENGTH);
    const conditions: Expression<SqlBool>[] = [];
    if (long.length > 0) {
      // Each word becomes a quoted FTS string: a substring match that ignores FTS syntax in the input.
      const query = long.map((word) => `"${word.replaceAll('"', '""')}"`).join(' AND ');
      conditions.push(sql<SqlBool>`sounds.seq IN (SELECT rowid FROM sounds_fts WHERE sounds_fts MATCH ${query})`);
    }
    // One and two-letter words are shorter than a trigram: instr() over the rows left is correct,
    // and the indexed words above (when present) have already narrowed those rows down.
    for (const word of short) conditions.push(sql<SqlBool>`instr(sounds.search_text, ${word}) > 0`);
    return conditions.length === 1 ? conditions[0]! : sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
  },
};
