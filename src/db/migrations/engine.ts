import type { Kysely } from 'kysely';

/** The database engine a migration runs on: each writes its SQL out for both. */
export type Engine = 'sqlite' | 'postgres';

/**
 * A change of the schema. Frozen once released: a migration writes out everything it does and
 * imports no code of the service's, so that changing the service never changes history.
 */
export interface Migration {
  up(db: Kysely<any>, engine: Engine): Promise<void>;
}
