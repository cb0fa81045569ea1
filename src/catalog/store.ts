import type { Db } from '../db/index.ts';
import { reusableQuery } from '../db/reusable-query.ts';
import { DOWNLOADS_COLUMN, SOUND_COLUMNS, soundOf, type SoundRow } from './rows.ts';
import type { StoredSound } from './sound.ts';
import type { Peak } from './waveform.ts';
import { storable } from '../db/text.ts';

const STORED_COLUMNS = [...SOUND_COLUMNS, 'file_key', 'file_size', 'content_hash'] as const;

/**
 * The catalog's rows: one sound by id (with its download count: catalog/download-counts.ts), the
 * sample flags. Lists are not read here but from the search index (@sound-catalog/catalog-index); writes that
 * come with ingest live in writer.ts.
 */
export class CatalogStore {
  /** Details, stream and download URLs and every media request read one sound: compiled once. */
  private readonly soundById;
  /** Every download reads it: compiled once too. */
  private readonly downloadTargetById;
  private readonly seqById;

  constructor(private readonly db: Db) {
    this.soundById = reusableQuery(
      db,
      db
        .selectFrom('sounds')
        .leftJoin('sound_downloads', 'sound_downloads.sound_seq', 'sounds.seq')
        .select([...STORED_COLUMNS, DOWNLOADS_COLUMN])
        .where('id', '=', ''),
    );
    this.downloadTargetById = reusableQuery(
      db,
      db.selectFrom('sounds').select(['seq', 'id', 'name']).where('id', '=', ''),
    );
    this.seqById = reusableQuery(db, db.selectFrom('sounds').select('seq').where('id', '=', ''));
  }

  async findById(id: string): Promise<StoredSound | null> {
    if (!storable(id)) return null;
    const [row] = await this.soundById(id);
    return row ? toStoredSound(row) : null;
  }

  /** The database row key of the sound with this id, or null when there is none. */
  async seqOf(id: string): Promise<number | null> {
    if (!storable(id)) return null;
    const [row] = await this.seqById(id);
    return row ? Number(row.seq) : null;
  }

  /** The stored peaks of a sound (none when it was never measured), or null when no sound has the id. */
  async waveform(id: string): Promise<Peak[] | null> {
    if (!storable(id)) return null;
    const row = await this.db.selectFrom('sounds').select('waveform').where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    return row.waveform ? (JSON.parse(row.waveform) as Peak[]) : [];
  }

  /** What counting a download of a sound needs: its key and name (null when no sound has the id). */
  async downloadTarget(id: string): Promise<{ seq: number; id: string; name: string } | null> {
    if (!storable(id)) return null;
    const [row] = await this.downloadTargetById(id);
    return row ? { seq: Number(row.seq), id: row.id, name: row.name } : null;
  }

  /** Makes exactly these sounds the public samples; returns how many exist. Unknown ids are reported. */
  async setSamples(ids: string[]): Promise<{ samples: number; unknown: string[] }> {
    const unstorable = ids.filter((id) => !storable(id));
    if (unstorable.length > 0) return { samples: 0, unknown: unstorable };
    try {
      return await this.db.transaction().execute(async (trx) => {
        // A write first, so the transaction holds SQLite's write lock from the start (see
        // CatalogWriter.updateMetadata); unknown ids then roll it back.
        await trx.updateTable('sounds').set({ is_sample: 0 }).where('is_sample', '=', 1).execute();
        const found =
          ids.length === 0 ? [] : await trx.selectFrom('sounds').select('id').where('id', 'in', ids).execute();
        const known = new Set(found.map((row) => row.id));
        const unknown = ids.filter((id) => !known.has(id));
        if (unknown.length > 0) throw new UnknownSounds(unknown);
        if (ids.length > 0) await trx.updateTable('sounds').set({ is_sample: 1 }).where('id', 'in', ids).execute();
        return { samples: known.size, unknown };
      });
    } catch (error) {
      if (error instanceof UnknownSounds) return { samples: 0, unknown: error.ids };
      throw error;
    }
  }

  async size(): Promise<number> {
    const row = await this.db
      .selectFrom('sounds')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

class UnknownSounds extends Error {
  constructor(readonly ids: string[]) {
    super(`unknown sounds: ${ids.join(', ')}`);
  }
}

function toStoredSound(row: SoundRow & { file_key: string; file_size: number; content_hash: string }): StoredSound {
  return {
    ...soundOf(row),
    fileKey: row.file_key,
    fileSize: Number(row.file_size),
    contentHash: row.content_hash,
    createdAt: row.created_at,
  };
}
