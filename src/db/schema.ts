import type { ColumnType, Generated } from 'kysely';

/**
 * Table shapes as the database sees them. Rows never leave the stores: services map them to
 * domain objects, so a column name can change without the API noticing.
 */
export interface Database {
  sounds: SoundsTable;
  catalog_changes: CatalogChangesTable;
  catalog_changes_pruned: CatalogChangesPrunedTable;
  sound_downloads: SoundDownloadsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_daily: UsageDailyTable;
  key_usage_daily: KeyUsageDailyTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_sign_in_failures: DashboardSignInFailuresTable;
  renditions: RenditionsTable;
  secrets: SecretsTable;
}

export interface SoundsTable {
  /** Internal integer key: the SQLite rowid the full-text index points at. */
  seq: Generated<number>;
  id: string;
  name: string;
  description: string | null;
  /** JSON array of lowercase tags, in the order given. */
  tags: string;
  category: string | null;
  license: string | null;
  duration: number;
  onset_ms: number | null;
  peak_ms: number | null;
  tail_ms: number | null;
  integrated_lufs: number | null;
  true_peak_db: number | null;
  /** JSON array of [min, max] pairs. */
  waveform: string | null;
  /** JSON array of DESCRIPTOR_LENGTH numbers; null until measured. */
  descriptors: string | null;
  is_sample: ColumnType<number, number | undefined, number>;
  /**
   * Where the sound loops, in sample frames of the catalog's file: the first frame of the loop and
   * the frame after its last. Both null when it is no loop. bigint on PostgreSQL: read as a string.
   */
  loop_start_sample: ColumnType<number | string | null, number | null | undefined, number | null>;
  loop_end_sample: ColumnType<number | string | null, number | null | undefined, number | null>;
  content_hash: string;
  file_key: string;
  file_size: number;
  /** ISO-8601 UTC, so it sorts as text on every dialect. */
  created_at: string;
  updated_at: string;
}

/** A numbered log of changed sounds, written by triggers (db/dialects): the catalog change feed. */
export interface CatalogChangesTable {
  seq: Generated<number>;
  sound_seq: number;
  /** The sound's id, its kind of change and when (ISO 8601); null on rows written before migration 011. */
  sound_id: Generated<string | null>;
  kind: Generated<'added' | 'updated' | 'removed' | null>;
  changed_at: Generated<string | null>;
}

/**
 * One row: every change log number up to `upto` is gone from the log or never came. Pruning
 * raises it before deleting, so a reader tells pruned numbers from numbers still being written
 * (catalog/change-log-frontier.ts).
 */
export interface CatalogChangesPrunedTable {
  upto: number;
}

/**
 * Each downloaded sound's all-time count, outside `sounds` so that a count is no catalog change
 * (catalog/download-counts.ts). `version` names the commit that last changed the row: other
 * instances read the rows whose version passed the last one they read.
 */
export interface SoundDownloadsTable {
  sound_seq: number;
  count: number;
  version: number;
}

export interface AccountsTable {
  id: string;
  email: string;
  plan: string;
  password_hash: string | null;
  is_operator: ColumnType<number, number | undefined, number>;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  /** Hex SHA-256 of the whole key: the only form in which a key is kept. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface UsageDailyTable {
  account_id: string;
  /** YYYY-MM-DD in UTC. */
  day: string;
  count: number;
}

export interface KeyUsageDailyTable {
  key_id: string;
  day: string;
  count: number;
}

export interface DashboardSessionsTable {
  /** Hex SHA-256 of the session id; the id itself lives only in the browser's cookie. */
  id_hash: string;
  account_id: string;
  created_at: string;
  expires_at: string;
}

export interface DashboardSignInFailuresTable {
  /** `address:<ip>` or `email:<normalized email>`: what a sign-in throttle counts by. */
  subject: string;
  failed_at: string;
}

/**
 * One stored rendition (media/rendition-store.ts): its file, what it measures, when it was made and
 * last served; or one being made (a claim).
 */
export interface RenditionsTable {
  /** The file store's key of the MP3. */
  file_key: string;
  bytes: number;
  /** Seconds. */
  duration: number;
  integrated_lufs: number | null;
  true_peak_db: number | null;
  /** ISO-8601 UTC, so it sorts as text on every dialect. */
  made_at: string;
  /** Updated in batches, not on every request: the order eviction follows, to within the batch interval. */
  last_served_at: string;
  /** The job making it, while it is being made (a claim: no file yet); null once stored. */
  claimed_by: string | null;
  /** When another instance may take the claim over (ISO-8601 UTC); null once stored. */
  claim_expires_at: string | null;
}

/** A secret the service generated for itself (secrets.ts), shared by every instance on the database. */
export interface SecretsTable {
  /** `signing` or `csrf`. */
  name: string;
  value: string;
  created_at: string;
}
