/**
 * Fills a data folder with COUNT metadata-only sounds, so that anyone can load-test a catalog of
 * any size:  node --import tsx bench/fill-catalog.ts DATA_DIR COUNT [SEED]
 *
 * Names, descriptions and tags are drawn from a few hundred sound words with a skewed (Zipf)
 * frequency, as real catalogs have a few very common words and a long tail; categories, durations
 * (per category), download counts (most sounds few, some many) and dates vary. No audio files are
 * written: search, lists and details work; the media route answers 404 for these sounds.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import SQLite from '../src/db/dialects/better-sqlite3.js';
import { DESCRIPTOR_LENGTH } from '../src/audio/analyze/descriptors.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/wiring.ts';
import { generator } from './query-mix.ts';
import { ACTIONS, CONTEXTS, QUALITIES, SOURCES } from '../packages/catalog-index/bench/vocabulary.ts';

const CATEGORIES = ['SFX', 'SFX', 'SFX', 'SFX', 'SFX', 'AMBIENT', 'MUSIC', 'LOFI'] as const;

const title = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/**
 * Made-up audio descriptors with the structure real ones have: sounds of one source ("glass",
 * "rain") lie near that source's centre, so similar-sounds queries do the work they do on a real
 * catalog (every described sound is read; the nearest are a mix of near and far).
 */
const centres = new Map<string, number[]>();
function descriptorsOf(source: string, next: () => number): string {
  let centre = centres.get(source);
  if (!centre) {
    const random = generator(centres.size + 1000);
    centre = Array.from({ length: DESCRIPTOR_LENGTH }, () => (random.next() - 0.5) * 6);
    centres.set(source, centre);
  }
  return JSON.stringify(centre.map((value) => Number((value + (next() + next() + next() - 1.5) * 2).toPrecision(5))));
}

export async function fillCatalog(dataDir: string, count: number, seed = 1): Promise<void> {
  // The services make the data folder and its schema; rows then go in through one connection.
  const services = await createServices(loadConfig({ SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' }));
  await services.close();
  const db = new SQLite(path.join(dataDir, 'catalog.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insertSound =
    db.prepare(`INSERT INTO sounds (id, name, description, tags, category, license, duration, onset_ms, peak_ms,
    tail_ms, integrated_lufs, true_peak_db, waveform, is_sample, content_hash, file_key, file_size,
    created_at, updated_at, descriptors) VALUES (?, ?, ?, ?, ?, 'CC0', ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)`);
  const insertDownloads = db.prepare('INSERT INTO sound_downloads (sound_seq, count, version) VALUES (?, ?, 0)');
  const random = generator(seed);
  const { next, zipf, pick } = random;
  const start = Date.UTC(2023, 0, 1);
  const first = (db.prepare('SELECT count(*) AS n FROM sounds').get() as { n: number }).n;
  const insertBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const source = zipf(SOURCES);
      const category = pick(CATEGORIES);
      const name = [
        title(zipf(QUALITIES)),
        title(source),
        next() < 0.6 ? title(zipf(ACTIONS)) : '',
        next() < 0.5 ? String(1 + Math.floor(next() * 20)) : '',
      ]
        .filter(Boolean)
        .join(' ');
      const description =
        next() < 0.1
          ? null
          : `A ${zipf(QUALITIES)} ${source} ` +
            `${zipf(ACTIONS)}${next() < 0.5 ? `, ${zipf(QUALITIES)} and ${zipf(QUALITIES)}` : ''}, ` +
            `for ${zipf(CONTEXTS)} ${next() < 0.4 ? `or ${zipf(CONTEXTS)} ` : ''}scenes`;
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
      const hash = createHash('sha256')
        .update(`fill-${seed}-${first + i}`)
        .digest('hex');
      const created = new Date(start + Math.floor(next() * 3 * 365 * 86_400_000)).toISOString();
      const downloads = Math.floor(Math.exp(next() * 9) - 1) * (next() < 0.3 ? 0 : 1);
      const { lastInsertRowid } = insertSound.run(
        hash.slice(0, 16),
        name,
        description,
        JSON.stringify(tags),
        category,
        duration,
        Math.round(next() * 50),
        Math.round(next() * duration * 300),
        Math.round(duration * 900),
        -30 + next() * 22,
        -6 + next() * 5.5,
        first + i < 24 ? 1 : 0,
        hash,
        `${hash.slice(0, 2)}/${hash}.mp3`,
        Math.round(duration * 24_000),
        created,
        created,
        descriptorsOf(source, next),
      );
      if (downloads > 0) insertDownloads.run(lastInsertRowid, downloads);
    }
  });
  for (let from = 0; from < count; from += 10_000) insertBatch(from, Math.min(count, from + 10_000));
  // The change log holds a row per insert; the newest one is kept so that a server opened on this
  // folder starts following from it.
  db.prepare('DELETE FROM catalog_changes WHERE seq < (SELECT max(seq) FROM catalog_changes)').run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dataDir, count, seed] = process.argv.slice(2);
  if (!dataDir || !(Number(count) > 0)) {
    process.stderr.write('usage: node --import tsx bench/fill-catalog.ts DATA_DIR COUNT [SEED]\n');
    process.exit(2);
  }
  const started = performance.now();
  await fillCatalog(path.resolve(dataDir), Number(count), Number(seed ?? 1));
  process.stderr.write(
    `${Number(count).toLocaleString('en')} sounds in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
