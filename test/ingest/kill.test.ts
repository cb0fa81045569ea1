import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeAudio } from '../../src/audio/decode/index.ts';
import { Mp3StreamEncoder } from '../../src/audio/encode/mp3-stream-encoder.ts';
import { createServices } from '../../src/wiring.ts';
import { noise, seededRandom, sine } from '../audio/helpers/signals.ts';
import { encodeWavFloat32 } from '../audio/helpers/wav.ts';
import {
  backendOf,
  configFor,
  onS3,
  otherConnection,
  removeBackend,
  type OtherConnection,
} from '../helpers/backend.ts';
import { runCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { withoutId3 } from '../helpers/id3.ts';
import { startServe, type ServeProcess } from '../helpers/process.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/sound-catalog.js');
const WAVS = 34;
const MP3S = 6;
const FILES = WAVS + MP3S;
const KILLS = 10;
/** First runs killed while they make the schema, each on a fresh data folder. */
const START_KILLS = 3;
/** Files marked samples by a sidecar: the public sample list (12 at most) shows them all. */
const SAMPLES = 8;
/** `KILL_SEED=N` repeats a run's kill moments (each run prints its seed). */
const SEED = process.env.KILL_SEED ? Number(process.env.KILL_SEED) : randomInt(2 ** 31);

interface SourceFile {
  file: string;
  /** The one word of its name, no other sound's name holds it. */
  word: string;
  contentHash: string;
  sample: boolean;
  /** The MP3 bytes a source MP3 is stored as, unchanged. */
  mp3?: Uint8Array;
  seconds: number;
}

interface Row {
  id: string;
  name: string;
  content_hash: string;
  file_key: string;
  file_size: number;
}

/** Six-letter words, all different and of one length, so none is a prefix or a part of another. */
function wordOf(index: number): string {
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aeiou';
  let word = '';
  let rest = index * 7919 + 12_345;
  for (let i = 0; i < 3; i++) {
    word += consonants[rest % consonants.length]! + vowels[Math.floor(rest / consonants.length) % vowels.length]!;
    rest = Math.floor(rest / (consonants.length * vowels.length));
  }
  return word;
}

/**
 * Ingest killed with SIGKILL at random moments, then run to the end: each file is in the catalog
 * once, with its media whole, and every list (of the `serve` that ran through it all, and of a
 * fresh one) shows it once.
 */
describe('ingest: killed at random moments and run again', () => {
  let folder: string;
  let sources: SourceFile[];
  const cleanups: Array<() => Promise<unknown>> = [];

  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sound-catalog-kills-'));
    const audio = path.join(folder, 'sounds');
    await mkdir(audio);
    sources = [];
    const words = new Set<string>();
    for (let i = 0; i < FILES; i++) {
      const word = wordOf(i);
      assert.ok(!words.has(word), `word ${word} is unique`);
      words.add(word);
      const seconds = 0.6 + (i % 5) * 0.2;
      const rate = i % 2 === 0 ? 22_050 : 44_100;
      const frames = Math.round(rate * seconds);
      const tone = i % 3 === 0 ? [sine(rate, 110 + i * 17, -12, frames)] : [];
      const channels = [noise(i + 1, -24, frames, 0.5), ...tone];
      let bytes: Uint8Array;
      let mp3: Uint8Array | undefined;
      let extension = 'wav';
      if (i < MP3S) {
        const format = { sampleRate: rate, channelCount: channels.length };
        const encoder = await Mp3StreamEncoder.create(format, { bitrate: 64 });
        bytes = mp3 = Buffer.concat([...encoder.encode({ sampleRate: rate, channels }), ...encoder.finish().frames]);
        extension = 'mp3';
      } else {
        bytes = encodeWavFloat32({ sampleRate: rate, channels });
      }
      const file = path.join(audio, `${word}.${extension}`);
      await writeFile(file, bytes);
      const sample = i % 5 === 1 && sources.filter((source) => source.sample).length < SAMPLES;
      if (sample) await writeFile(path.join(audio, `${word}.json`), JSON.stringify({ sample: true }));
      const contentHash = createHash('sha256').update(bytes).digest('hex');
      sources.push({ file, word, contentHash, sample, ...(mp3 && { mp3 }), seconds });
    }
    assert.equal(sources.filter((source) => source.sample).length, SAMPLES);
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await rm(folder, { recursive: true, force: true });
  });

  /** A data folder of its own (with its schema or bucket), removed at the end. */
  const dataFolder = async (name: string) => {
    const dataDir = path.join(folder, name);
    cleanups.push(() => removeBackend(dataDir));
    return { dataDir, env: { SOUND_CATALOG_DATA: dataDir, SOUND_CATALOG_DEMO: '0' } };
  };

  const rowsOf = async (dataDir: string): Promise<Row[]> => {
    const db = await otherConnection(dataDir, { readonly: true });
    try {
      return await db.all<Row>('SELECT id, name, content_hash, file_key, file_size FROM sounds');
    } finally {
      await db.close();
    }
  };

  test('ingest.killed-repeatedly: after 10 kills and a last run, each file once, listed, found, served', async (t) => {
    t.diagnostic(`seed ${SEED} (KILL_SEED=${SEED} repeats these kill moments)`);
    const random = seededRandom(SEED);

    // An ingest left alone: how long a whole run takes now (kills fall within it), and what it stores.
    const reference = await dataFolder('reference');
    const started = performance.now();
    const clean = await runCli(['ingest', path.join(folder, 'sounds'), '--json'], reference.env);
    const wholeRunMs = performance.now() - started;
    assert.equal(clean.status, 0, clean.stderr);
    assert.deepEqual(clean.json, { added: FILES, updated: 0, failed: [], skipped: [] });
    const expectedSize = new Map((await rowsOf(reference.dataDir)).map((row) => [row.content_hash, row.file_size]));
    t.diagnostic(`a whole ingest of ${FILES} files took ${Math.round(wholeRunMs)} ms`);

    const { dataDir, env } = await dataFolder('killed');
    const backend: Record<string, string> = { ...env, ...(await backendOf(env)) };
    let serve: ServeProcess | undefined;
    let key = '';
    const moments: string[] = [];
    const soundCount = async () => (await rowsOf(dataDir).catch(() => [])).length;
    let count = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const child = spawn(process.execPath, [BIN, 'ingest', path.join(folder, 'sounds'), '--json'], {
        env: { ...process.env, ...backend },
        stdio: 'ignore',
      });
      let finished = false;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve(void (finished = true))));
      const sleep = (ms: number) => Promise.race([exited, new Promise((resolve) => setTimeout(resolve, ms))]);
      let moment: string;
      if (kill % 3 !== 0 && count < FILES) {
        // Two kills in three fall among the writes: once a few sounds more are in, and a random
        // moment after (another file's row or media file may be on its way). A few at a time, so
        // that the writes of most runs are cut.
        const target = count + 1 + Math.floor(random() * Math.min(6, FILES - count));
        const jitter = Math.round(random() * 300);
        while (!finished && (await soundCount()) < target) await sleep(10);
        await sleep(jitter);
        moment = `${jitter} ms after sound ${target}`;
      } else {
        // The others anywhere in a run as long as a whole one takes: start-up, hashing, updates,
        // writes.
        const delay = Math.round(random() * wholeRunMs);
        await sleep(delay);
        moment = `at ${delay} ms`;
      }
      const ranToEnd = finished;
      child.kill('SIGKILL');
      await exited;
      count = await soundCount();
      moments.push(`${moment}${ranToEnd ? ' (had finished)' : ''}: ${count} sounds`);
      if (kill === 0) {
        // The first kill may fall in the schema's creation; the server starts after it and runs
        // through the rest.
        const services = await createServices(await configFor(dataDir));
        try {
          const account = await services.accounts.createAccount(`kills-${SEED}@example.com`, 'enterprise');
          ({ key } = await services.accounts.createKey(account.id, 'kills'));
        } finally {
          await services.close();
        }
        serve = await startServe(env);
        cleanups.push(() => serve!.stop());
      }
    }
    t.diagnostic(`kills: ${moments.join('; ')}`);

    const last = await runCli(['ingest', path.join(folder, 'sounds'), '--json'], env);
    assert.equal(last.status, 0, last.stderr);
    assert.equal(last.json.added + last.json.updated, FILES, JSON.stringify(last.json));
    assert.deepEqual([last.json.failed, last.json.skipped], [[], []]);

    const rows = await rowsOf(dataDir);
    assert.equal(rows.length, FILES, 'one row per file');
    const hashes = sources.map((source) => source.contentHash).sort();
    assert.deepEqual(rows.map((row) => row.content_hash).sort(), hashes, 'each file once, by content');
    for (const row of rows) {
      assert.equal(row.file_size, expectedSize.get(row.content_hash), `${row.name}: stored as a whole run stores it`);
    }
    if (!onS3) {
      assert.deepEqual(await readdir(path.join(dataDir, 'audio', '.tmp')), [], 'no scratch file is left');
      const names = await readdir(path.join(dataDir, 'audio'), { recursive: true });
      const stored = names.filter((name) => name.endsWith('.mp3'));
      assert.equal(stored.length, FILES, 'one media file per sound, none left over');
    }

    // The server that ran through the kills follows the change log; one started now loads the catalog.
    await checkLists({ url: serve!.url, key, who: 'the server that ran through the kills' }, sources, rows);
    await serve!.stop();
    const fresh = await startServe(env);
    cleanups.push(() => fresh.stop());
    await checkLists({ url: fresh.url, key, who: 'a server started after' }, sources, rows);
  });

  test('ingest.killed-at-start: a first run killed as it makes the schema leaves one the next completes', async (t) => {
    t.diagnostic(`seed ${SEED} (KILL_SEED=${SEED} repeats these kill moments)`);
    const random = seededRandom(SEED ^ 0x5eed);
    const few = path.join(folder, 'few');
    await mkdir(few);
    for (const { file } of sources.slice(MP3S, MP3S + 2)) await copyFile(file, path.join(few, path.basename(file)));
    const moments: string[] = [];
    for (let attempt = 0; attempt < START_KILLS; attempt++) {
      const { dataDir, env } = await dataFolder(`start-${attempt}`);
      const child = spawn(process.execPath, [BIN, 'ingest', few, '--json'], {
        env: { ...process.env, ...(await backendOf(env)), ...env },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Killed as the catalog's first table shows, or just after: SQLite's migrations had made it
      // and the rest of them were left undone until they were made one transaction.
      while (child.exitCode === null && !(await tableShows(dataDir, 'sounds'))) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const delay = Math.round(random() * 20);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await exited;
      moments.push(`${delay} ms`);
      const again = await runCli(['ingest', few, '--json'], env);
      assert.equal(again.status, 0, `after a kill ${delay} ms into the migrations: ${again.stderr}`);
      assert.equal(again.json.added + again.json.updated, 2);
      assert.equal((await rowsOf(dataDir)).length, 2);
    }
    t.diagnostic(`kills after the first table showed: ${moments.join(', ')}`);
  });
});

/** True once another connection sees the table in the data folder's database. */
async function tableShows(dataDir: string, table: string): Promise<boolean> {
  let db: OtherConnection | undefined;
  try {
    db = await otherConnection(dataDir, { readonly: true });
    await db.all(`SELECT 1 FROM ${table} LIMIT 1`);
    return true;
  } catch {
    return false;
  } finally {
    await db?.close();
  }
}

interface Server {
  url: string;
  key: string;
  /** Which server, in messages. */
  who: string;
}

interface ListAnswer {
  data: Array<{ id: string; name: string }>;
  pagination: { total: number; totalPages: number };
}

/** Each sound once in every list and walk of the server, found by its word, and its media whole and playable. */
async function checkLists({ url, key, who }: Server, sources: SourceFile[], rows: Row[]): Promise<void> {
  const idOf = new Map(rows.map((row) => [row.content_hash, row.id]));
  const get = async (pathAndQuery: string, withKey = true): Promise<ListAnswer> => {
    const response = await fetch(url + pathAndQuery, { headers: withKey ? { 'x-api-key': key } : {} });
    assert.equal(response.status, 200, `${who}: GET ${pathAndQuery}: ${response.status}`);
    return (await response.json()) as ListAnswer;
  };
  const allIds = [...idOf.values()].sort();
  /** Every page of a list, walked in small pages. */
  const walk = async (query: string) => {
    const seen: string[] = [];
    const first = await get(`/api/v1/sounds?${query}&limit=7&page=1`);
    for (let page = 1; page <= first.pagination.totalPages; page++) {
      const answer = page === 1 ? first : await get(`/api/v1/sounds?${query}&limit=7&page=${page}`);
      seen.push(...answer.data.map((sound) => sound.id));
    }
    return { total: first.pagination.total, ids: seen.sort() };
  };
  // Within the change feed's reach: the running server may still be reading the last run's writes.
  await eventually(
    () => walk('sort=name&order=asc'),
    (found) => found.total === sources.length,
    3000,
    `${who}: the catalog's first listing holds ${sources.length} sounds`,
  );
  for (const query of ['sort=name&order=asc', 'sort=created_at', 'sort=downloads', 'sort=duration&order=asc']) {
    assert.deepEqual(await walk(query), { total: sources.length, ids: allIds }, `${who}: ${query} lists each once`);
  }
  for (const source of sources) {
    const found = (await get(`/api/v1/sounds?q=${source.word}`)).data.map((sound) => sound.id);
    assert.deepEqual(found, [idOf.get(source.contentHash)], `${who}: "${source.word}" finds its sound`);
  }
  const popular = (await get('/api/v1/sounds/popular?limit=100')).data.map((sound) => sound.id).sort();
  assert.deepEqual(popular, allIds, `${who}: the popular list holds each sound once`);
  const samples = (await get('/api/v1/sounds/sample', false)).data.map((sound) => sound.id).sort();
  const sampleIds = sources
    .filter((source) => source.sample)
    .map((source) => idOf.get(source.contentHash)!)
    .sort();
  assert.deepEqual(samples, sampleIds, `${who}: the sample list holds each sample once`);

  const sizes = new Map(rows.map((row) => [row.id, row.file_size]));
  for (const source of sources) {
    const id = idOf.get(source.contentHash)!;
    const answer = await fetch(`${url}/api/v1/sounds/${id}/download`, { headers: { 'x-api-key': key } });
    const media = await fetch(((await answer.json()) as { data: { download_url: string } }).data.download_url);
    assert.equal(media.status, 200, `${who}: ${source.word}'s media answers`);
    const bytes = new Uint8Array(await media.arrayBuffer());
    // The stored file behind the sound's tags (media/tags).
    const stored = withoutId3(bytes);
    assert.equal(stored.byteLength, sizes.get(id), `${who}: ${source.word}'s media is whole`);
    if (source.mp3)
      assert.deepEqual(stored, withoutId3(new Uint8Array(source.mp3)), `${who}: ${source.word} is its source MP3`);
    const decoded = await decodeAudio(bytes);
    const seconds = decoded.channels[0]!.length / decoded.sampleRate;
    assert.ok(Math.abs(seconds - source.seconds) < 0.15, `${who}: ${source.word} plays ${seconds} s`);
  }
}
