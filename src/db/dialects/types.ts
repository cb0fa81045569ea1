import type { Expression, Kysely, SqlBool } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * What differs between database engines, in one place per engine. Services and stores call
 * these instead of branching on the engine.
 */
export interface SqlDialect {
  name: 'sqlite' | 'postgres';
  /** Column type for an auto-incrementing integer primary key. */
  autoIncrementType: 'integer' | 'serial';
  /** Creates whatever index makes `matchWords` fast (run by the first migration). */
  createTextIndex(db: Kysely<Database>): Promise<void>;
  /**
   * A condition on `sounds` that holds when every word occurs, case-insensitively, inside
   * `sounds.search_text`. Words arrive lower-cased and non-empty.
   */
  matchWords(words: string[]): Expression<SqlBool>;
}
