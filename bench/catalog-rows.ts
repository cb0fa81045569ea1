import { createHash } from 'node:crypto';
import type { Db } from '../src/db/index.ts';

/**
 * Fills a catalog with N plausible rows straight into the database (no audio): what the API
 * benchmark needs to measure queries at 12,000 and 100,000 sounds.
 */
const NOUNS = ['laser', 'zap', 'coin', 'door', 'rain', 'wind', 'wave', 'click', 'beep', 'whoosh', 'impact', 'explosion',
  'footsteps', 'hum', 'alarm', 'loop', 'chord', 'bass', 'drum', 'glass', 'metal', 'wood', 'water', 'fire', 'engine'];
const ADJECTIVES = ['short', 'long', 'soft', 'hard', 'bright', 'dark', 'deep', 'high', 'low', 'quick', 'slow', 'warm', 'cold', 'heavy', 'light'];
const TAGS = ['sci-fi', 'game', 'ui', 'nature', 'urban', 'retro', 'cinematic', 'cartoon', 'chill', 'ambient', 'music', 'loop', 'impact', 'short', 'long'];
const CATEGORIES = ['SFX', 'SFX', 'SFX', 'AMBIENT', 'MUSIC', 'LOFI'];

export async function insertCatalogRows(db: Db, count: number): Promise<void> {
  let random = 12345;
  const next = (n: number) => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return random % n;
  };
  const batch = 500;
  for (let start = 0; start < count; start += batch) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(count, start + batch); i++) {
        const name = `${cap(ADJECTIVES[next(ADJECTIVES.length)]!)} ${cap(NOUNS[next(NOUNS.length)]!)} ${cap(NOUNS[next(NOUNS.length)]!)} ${i}`;
        const description = `A ${ADJECTIVES[next(ADJECTIVES.length)]} ${NOUNS[next(NOUNS.length)]} sound`;
        const tags = [...new Set([NOUNS[next(NOUNS.length)]!, TAGS[next(TAGS.length)]!, TAGS[next(TAGS.length)]!])];
        const hash = createHash('sha256').update(`bench-${i}`).digest('hex');
        const now = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
        const { seq } = await trx.insertInto('sounds').values({
          id: hash.slice(0, 16), name, description, tags: JSON.stringify(tags), category: CATEGORIES[next(CATEGORIES.length)]!,
          license: 'CC0', duration: 0.1 + next(60000) / 1000, onset_ms: 1, peak_ms: 20, tail_ms: 500, integrated_lufs: -20,
          true_peak_db: -1, waveform: null, search_text: [name, description, ...tags].join(' ').toLowerCase(),
          num_downloads: next(1000), is_sample: i < 20 ? 1 : 0, content_hash: hash, file_key: `${hash.slice(0, 2)}/${hash}.mp3`,
          file_size: 1000, created_at: now, updated_at: now,
        }).returning('seq').executeTakeFirstOrThrow();
        await trx.insertInto('sound_tags').values(tags.map((tag) => ({ sound_seq: seq, tag }))).execute();
      }
    });
  }
}

function cap(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}
