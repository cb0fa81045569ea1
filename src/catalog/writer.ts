import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import type { AudioMeasurements } from '../audio/types.ts';
import type { Db } from '../db/index.ts';
import type { Category, Loop } from './sound.ts';

/** Where the writer keeps a sound's MP3: the media store (media/store.ts), of which it needs two methods. */
export interface SoundFiles {
  /** Stores bytes under a key, whole or not at all. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Stores a finished local file under a key: moved (the local file is gone after) or copied. */
  putFile(key: string, sourcePath: string, move: boolean): Promise<void>;
}

export interface SoundMetadata {
  name: string;
  description: string | null;
  tags: string[];
  category: Category | null;
  license: string;
  sample: boolean;
  /**
   * Where the sound loops, in frames of the catalog's file (end exclusive), checked by ingest
   * (ingest/loop.ts); null or absent: no loop.
   */
  loop?: Loop | null;
}

export interface NewSound {
  /** SHA-256 (hex) of the source file: the same content is the same sound. */
  contentHash: string;
  /** The MP3 in memory, or a file: moved into the store when `move`, else copied. */
  mp3: Uint8Array | { path: string; size: number; move: boolean };
  metadata: SoundMetadata;
  measurements: AudioMeasurements;
}

/**
 * Puts sounds into the catalog. The file is in place before its row is written, so no row ever
 * points at a missing file; the same content a second time only updates the metadata.
 */
export class CatalogWriter {
  constructor(
    private readonly db: Db,
    private readonly files: SoundFiles,
    private readonly clock: () => number,
    private readonly onChange: () => void = () => {},
  ) {}

  async updateMetadata(contentHash: string, metadata: SoundMetadata): Promise<{ id: string } | null> {
    // One statement, which finds the row and writes it at once: no read first that another
    // process's commit could make stale.
    const row = await this.db
      .updateTable('sounds')
      .set({ ...metadataColumns(metadata), updated_at: this.now() })
      .where('content_hash', '=', contentHash)
      .returning('id')
      .executeTakeFirst()
      .finally(this.onChange);
    return row ? { id: row.id } : null;
  }

  /** The sound that holds this content, if any (read only: what an ingest of it would update). */
  async findByContent(contentHash: string): Promise<{ id: string; name: string } | null> {
    const row = await this.db
      .selectFrom('sounds')
      .select(['id', 'name'])
      .where('content_hash', '=', contentHash)
      .executeTakeFirst();
    return row ?? null;
  }

  /** The names that begin with `prefix` (demo names are checked against them: ingest/demo-names.ts). */
  async namesStartingWith(prefix: string): Promise<string[]> {
    // substr rather than LIKE: no wildcard in a name can widen it, and no collation reorders it.
    const rows = await this.db
      .selectFrom('sounds')
      .select('name')
      .where(sql<string>`substr(name, 1, ${[...prefix].length})`, '=', prefix)
      .execute();
    return rows.map((row) => row.name);
  }

  /** Adds a sound, or updates its metadata when the content is known. */
  async put(sound: NewSound): Promise<{ id: string; added: boolean }> {
    const updated = await this.updateMetadata(sound.contentHash, sound.metadata);
    if (updated) return { ...updated, added: false };
    const fileKey = fileKeyFor(sound.contentHash);
    if (sound.mp3 instanceof Uint8Array) await this.files.put(fileKey, sound.mp3);
    else await this.files.putFile(fileKey, sound.mp3.path, sound.mp3.move);
    const now = this.now();
    const { measurements: m } = sound;
    const id = soundIdFor(sound.contentHash);
    const inserted = await this.db
      .insertInto('sounds')
      .values({
        id,
        ...metadataColumns(sound.metadata),
        duration: m.duration,
        onset_ms: m.timing.onset_ms,
        peak_ms: m.timing.peak_ms,
        tail_ms: m.timing.tail_ms,
        integrated_lufs: m.loudness.integrated_lufs,
        true_peak_db: m.loudness.true_peak_db,
        waveform: JSON.stringify(m.waveform),
        descriptors: m.descriptors && JSON.stringify(m.descriptors),
        content_hash: sound.contentHash,
        file_key: fileKey,
        file_size: sound.mp3 instanceof Uint8Array ? sound.mp3.byteLength : sound.mp3.size,
        created_at: now,
        updated_at: now,
      })
      // The same content may arrive twice at once (two copies in one folder, two ingest runs):
      // the second one finds the row and only updates the metadata. No conflict target: the id
      // is made from the content too, and PostgreSQL may find the other insert by either unique
      // index (naming content_hash alone, a race on the id's index was an error).
      .onConflict((oc) => oc.doNothing())
      .returning('seq')
      .executeTakeFirst()
      .finally(this.onChange);
    if (!inserted) await this.updateMetadata(sound.contentHash, sound.metadata);
    return { id, added: inserted !== undefined };
  }

  /** Every sound whose audio descriptors were never measured, with its file, in the order they were added. */
  async undescribed(): Promise<Array<{ id: string; fileKey: string }>> {
    const rows = await this.db
      .selectFrom('sounds')
      .select(['id', 'file_key'])
      .where('descriptors', 'is', null)
      .orderBy('seq')
      .execute();
    return rows.map((row) => ({ id: row.id, fileKey: row.file_key }));
  }

  /**
   * Stores a sound's descriptors, measured on its stored MP3; only the descriptors change. False
   * when the sound is gone or was described meanwhile (an ingest of the same content, say).
   */
  async setDescriptors(id: string, descriptors: number[]): Promise<boolean> {
    const result = await this.db
      .updateTable('sounds')
      .set({ descriptors: JSON.stringify(descriptors) })
      .where('id', '=', id)
      .where('descriptors', 'is', null)
      .executeTakeFirst()
      .finally(this.onChange);
    return Number(result.numUpdatedRows) > 0;
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }
}

/** Content-addressed key: two levels of fan-out keep folders small at 100,000 files. */
export function fileKeyFor(contentHash: string): string {
  return `${contentHash.slice(0, 2)}/${contentHash}.mp3`;
}

/** Ids are derived from content, so the same file gets the same id on every install. */
export function soundIdFor(contentHash: string): string {
  return createHash('sha256').update(`sound:${contentHash}`).digest('hex').slice(0, 16);
}

export function contentHashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function metadataColumns(metadata: SoundMetadata) {
  const tags = [...new Set(metadata.tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag.length > 0))];
  return {
    name: metadata.name,
    description: metadata.description,
    tags: JSON.stringify(tags),
    category: metadata.category,
    license: metadata.license,
    is_sample: metadata.sample ? 1 : 0,
    loop_start_sample: metadata.loop?.startSample ?? null,
    loop_end_sample: metadata.loop?.endSample ?? null,
  };
}
