import { rm, stat } from 'node:fs/promises';
import type { Mp3EncodeOptions } from '../audio/encode/index.ts';
import type { AudioProbe, SourceAudio } from '../audio/jobs.ts';
import { contentHashOf, soundIdFor, type CatalogWriter, type SoundMetadata } from '../catalog/writer.ts';
import { DemoNames } from './demo-names.ts';
import { hashFile } from './hash.ts';
import { resolveLoop, type FoundLoop } from './loop.ts';
import { MetadataError, readMetadata, type MetadataSources } from './metadata.ts';
import { silentProgress, type Progress } from './progress.ts';
import { findAudioFiles } from './walk.ts';
import { WorkerPool } from './worker-pool.ts';

/**
 * What ingest works with: the catalog's writer, and of the media store (media/store.ts) the
 * scratch files its worker threads write into and, to measure a stored sound again, a local copy.
 */
export interface IngestServices {
  catalogWriter: CatalogWriter;
  files: {
    prepareScratchFolder(): Promise<void>;
    temporaryPath(): string;
    localCopy(key: string): Promise<{ path: string; release(): Promise<void> }>;
  };
}

export interface IngestSummary {
  added: number;
  updated: number;
  failed: Array<{ file: string; reason: string }>;
  /** Files found or given that are clearly not audio (a .txt, .DS_Store), with why; see walk.ts. */
  skipped: Array<{ file: string; reason: string }>;
}

/** What ingest did with one file, and where its metadata came from (`ingest --verbose`). */
export interface IngestedFile {
  file: string;
  action: 'added' | 'updated' | 'failed' | 'skipped';
  id?: string;
  reason?: string;
  metadata?: SoundMetadata;
  sources?: MetadataSources;
  /** Tags in the file that were ignored (damaged, too large); the audio still went in. */
  notes?: string[];
}

export interface IngestResult extends IngestSummary {
  /** Every file in the order given and walked. */
  files: IngestedFile[];
}

export interface PipelineOptions {
  /** How files that are not MP3 are encoded (default LAME VBR V2). */
  encoding?: Mp3EncodeOptions;
  progress?: Progress;
  /** Aborting stops new work; what is finished stays, whole. */
  signal?: AbortSignal;
  workers?: number;
}

/**
 * Files and folders into the catalog: metadata, content hash (known content only has its
 * metadata updated), then decode → encode → measure in worker threads, then file, then row.
 */
export async function ingestPaths(
  services: IngestServices,
  paths: string[],
  options: PipelineOptions = {},
): Promise<IngestResult> {
  const { files, missing, skipped } = await findAudioFiles(paths);
  const summary: IngestSummary = { added: 0, updated: 0, failed: [...missing], skipped };
  const done: IngestedFile[] = new Array(files.length);
  await services.files.prepareScratchFolder();
  const progress = options.progress ?? silentProgress;
  progress.start(files.length);
  const pool = new WorkerPool(options.workers);
  try {
    // Content hashes first: a file whose content an earlier file of this run also has is taken
    // once that one is done, so the later file's metadata is the one kept, as the dry run says,
    // however the files interleave. (Files start in order, so waiting never deadlocks.)
    const hashes = await hashInOrder(files, pool.size * 2, options.signal);
    const latestWithContent = new Map<string, Promise<unknown>>();
    await forEachConcurrently(
      files.map((file, order) => ({ file, order })),
      pool.size * 2,
      options.signal,
      async ({ file, order }) => {
        const record: IngestedFile = { file, action: 'failed' };
        const hash = hashes[order]!;
        const earlier = typeof hash === 'string' ? latestWithContent.get(hash) : undefined;
        const turn = (async () => {
          await earlier;
          if (typeof hash !== 'string') throw hash;
          return ingestFile(services, pool, file, hash, options.encoding ?? {}, record);
        })();
        if (typeof hash === 'string')
          latestWithContent.set(
            hash,
            turn.catch(() => {}),
          );
        try {
          const outcome = await turn;
          summary[outcome]++;
          record.action = outcome;
        } catch (error) {
          record.reason = failureReason(error);
          summary.failed.push({ file, reason: record.reason });
        }
        done[order] = record;
        progress.advance();
      },
    );
  } finally {
    await pool.close();
    await services.files.prepareScratchFolder();
    progress.finish();
  }
  const missingFiles = missing.map(({ file, reason }): IngestedFile => ({ file, action: 'failed', reason }));
  const skippedFiles = skipped.map(({ file, reason }): IngestedFile => ({ file, action: 'skipped', reason }));
  return { ...summary, files: [...missingFiles, ...done.filter((record) => record !== undefined), ...skippedFiles] };
}

/** One file of a dry run: what ingest would do with it, with the metadata it would store. */
export interface PlannedFile {
  file: string;
  action: 'add' | 'update' | 'refuse' | 'skip';
  /** The sound's id: the one it would get (add), or the one whose metadata it would replace (update). */
  id?: string;
  /** Why it would be refused or skipped; for an update of content that comes earlier in the same run, which file. */
  reason?: string;
  metadata?: SoundMetadata;
  /** Where each field of the metadata came from (shown with --verbose). */
  sources?: MetadataSources;
  /** Tags in the file that would be ignored (shown with --verbose). */
  notes?: string[];
  /** What decoding found, for a file that would be added. */
  audio?: AudioProbe;
}

export interface IngestPlan extends IngestSummary {
  files: PlannedFile[];
}

/**
 * A dry run of `ingestPaths`: the same steps up to the writes (metadata, content hash, the
 * catalog's answer whether it knows the content, and for new content a full decode in the
 * worker threads), and nothing written: no file, no row, no scratch folder. Files are decided
 * in the order ingest would take them, so the second of two files with the same content is an
 * update of the first.
 */
export async function planIngest(
  services: Pick<IngestServices, 'catalogWriter'>,
  paths: string[],
  options: Omit<PipelineOptions, 'encoding'> = {},
): Promise<IngestPlan> {
  const { files, missing, skipped } = await findAudioFiles(paths);
  const planned: PlannedFile[] = new Array(files.length);
  const progress = options.progress ?? silentProgress;
  progress.start(files.length);
  const pool = new WorkerPool(options.workers);
  try {
    // Hashes first, as ingest takes them: which file of a run is first with its content is then known.
    const hashes = await hashInOrder(files, pool.size * 2, options.signal);
    const firstWithContent = new Map<string, number>();
    hashes.forEach((hash, order) => {
      if (typeof hash === 'string' && !firstWithContent.has(hash)) firstWithContent.set(hash, order);
    });
    await forEachConcurrently(
      files.map((file, order) => ({ file, order })),
      pool.size * 2,
      options.signal,
      async ({ file, order }) => {
        try {
          const { metadata, sources, notes, loop } = await readMetadata(file);
          const hash = hashes[order]!;
          if (typeof hash !== 'string') throw hash;
          const first = firstWithContent.get(hash)!;
          const decided = await decide(services, pool, file, hash, first === order ? null : files[first]!);
          // The loop as ingest would check it: against the audio the decision decoded, or a probe of it.
          const audio = decided.audio ?? (loop && decided.action === 'update' ? await probe(pool, file) : undefined);
          const looped = loop && audio ? withLoop(metadata, loop, sourceOf(audio), notes) : metadata;
          planned[order] = { file, metadata: looped, sources, ...(notes.length > 0 && { notes }), ...decided };
        } catch (error) {
          planned[order] = { file, action: 'refuse', reason: failureReason(error) };
        }
        progress.advance();
      },
    );
  } finally {
    await pool.close();
    progress.finish();
  }
  const decided = planned.filter((plan) => plan !== undefined);
  return {
    added: decided.filter((plan) => plan.action === 'add').length,
    updated: decided.filter((plan) => plan.action === 'update').length,
    failed: [
      ...missing,
      ...decided.filter((plan) => plan.action === 'refuse').map((plan) => ({ file: plan.file, reason: plan.reason! })),
    ],
    skipped,
    files: [
      ...missing.map(({ file, reason }) => ({ file, action: 'refuse' as const, reason })),
      ...decided,
      ...skipped.map(({ file, reason }) => ({ file, action: 'skip' as const, reason })),
    ],
  };
}

/** What ingest would do with a file: `earlier` is the file before it in this run with the same content, if any. */
async function decide(
  services: Pick<IngestServices, 'catalogWriter'>,
  pool: WorkerPool,
  file: string,
  hash: string,
  earlier: string | null,
): Promise<Pick<PlannedFile, 'action' | 'id' | 'reason' | 'audio'>> {
  const known = await services.catalogWriter.findByContent(hash);
  if (known) return { action: 'update', id: known.id };
  if (earlier !== null)
    return {
      action: 'update',
      id: soundIdFor(hash),
      reason: `same content as ${earlier}, added before it in this run`,
    };
  const result = await pool.run({ kind: 'probe', sourcePath: file });
  if (!result.ok) return { action: 'refuse', reason: result.reason };
  if (result.kind !== 'probe') throw new Error('unexpected worker result');
  const { id: _job, ok: _ok, kind: _kind, ...audio } = result;
  return { action: 'add', id: soundIdFor(hash), audio };
}

/** Decodes a whole file for what it is (a worker's probe); a file it cannot read fails. */
async function probe(pool: WorkerPool, file: string): Promise<AudioProbe> {
  const result = await pool.run({ kind: 'probe', sourcePath: file });
  if (!result.ok) throw new IngestFailure(result.reason);
  if (result.kind !== 'probe') throw new Error('unexpected worker result');
  const { id: _job, ok: _ok, kind: _kind, ...audio } = result;
  return audio;
}

/** A probe's audio as loops are checked against it: its length in frames (its duration is frames / rate). */
function sourceOf(audio: AudioProbe): SourceAudio {
  return { format: audio.format, sampleRate: audio.sampleRate, frames: Math.round(audio.duration * audio.sampleRate) };
}

/** The metadata with the loop asked for, once it fits the audio; a loop that does not is a note. */
function withLoop(metadata: SoundMetadata, found: FoundLoop, audio: SourceAudio, notes: string[]): SoundMetadata {
  const resolved = resolveLoop(found, audio);
  if ('note' in resolved) {
    notes.push(resolved.note);
    return metadata;
  }
  return { ...metadata, loop: resolved.loop };
}

class IngestFailure extends Error {}

/** The reason a file is reported failed: ours as they are, anything else marked as unexpected. */
function failureReason(error: unknown): string {
  return error instanceof IngestFailure || error instanceof MetadataError
    ? error.message
    : `could not ingest: ${(error as Error).message}`;
}

/** Each file's content hash, or the error that kept it from being read, in the files' order. */
async function hashInOrder(
  files: string[],
  lanes: number,
  signal: AbortSignal | undefined,
): Promise<Array<string | Error>> {
  const hashes: Array<string | Error> = new Array(files.length);
  await forEachConcurrently(
    files.map((file, order) => ({ file, order })),
    lanes,
    signal,
    async ({ file, order }) => {
      hashes[order] = await hashFile(file).then(
        ({ hash }) => hash,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
    },
  );
  return hashes;
}

/** Ingests one file; fills `record` with the sound's id and metadata as they become known. */
async function ingestFile(
  services: IngestServices,
  pool: WorkerPool,
  file: string,
  hash: string,
  encoding: Mp3EncodeOptions,
  record: IngestedFile,
): Promise<'added' | 'updated'> {
  const { metadata, sources, notes, loop } = await readMetadata(file);
  Object.assign(record, { metadata, sources }, notes.length > 0 && { notes });
  // A loop is checked against the decoded audio: known content is decoded again for it (a probe),
  // new content by the work that stores it. Without a loop, known content only has its metadata
  // written, the loop cleared with it.
  const knownContent = loop === null || (await services.catalogWriter.findByContent(hash)) !== null;
  if (knownContent) {
    const looped = loop === null ? metadata : withLoop(metadata, loop, sourceOf(await probe(pool, file)), notes);
    Object.assign(record, { metadata: looped }, notes.length > 0 && { notes });
    const known = await services.catalogWriter.updateMetadata(hash, looped);
    if (known) {
      record.id = known.id;
      return 'updated';
    }
  }
  const result = await pool.run({
    kind: 'file',
    sourcePath: file,
    temporaryPath: services.files.temporaryPath(),
    encoding,
  });
  if (!result.ok) throw new IngestFailure(result.reason);
  if (result.kind !== 'file') throw new Error('unexpected worker result');
  const { size } = await stat(result.mp3Path);
  const looped = loop === null ? metadata : withLoop(metadata, loop, result.source, notes);
  Object.assign(record, { metadata: looped }, notes.length > 0 && { notes });
  try {
    const { id, added } = await services.catalogWriter.put({
      contentHash: hash,
      mp3: { path: result.mp3Path, size, move: result.encoded },
      metadata: looped,
      measurements: result.measurements,
    });
    record.id = id;
    return added ? 'added' : 'updated';
  } finally {
    if (result.encoded) await rm(result.mp3Path, { force: true });
  }
}

export interface SeedOptions extends PipelineOptions {
  /** Demo sounds `from` (default 0) up to, not including, `count`. */
  count: number;
  from?: number;
  seed: string;
}

/** Synthesizes the demo catalog through the same encode → measure → store path as ingest. */
export async function seedCatalog(
  services: IngestServices,
  options: SeedOptions,
): Promise<{ added: number; updated: number }> {
  const progress = options.progress ?? silentProgress;
  const counts = { added: 0, updated: 0 };
  const from = options.from ?? 0;
  const indexes = Array.from({ length: Math.max(0, options.count - from) }, (_, i) => from + i);
  progress.start(indexes.length);
  const pool = new WorkerPool(options.workers);
  const names = new DemoNames(services.catalogWriter);
  try {
    await forEachConcurrently(indexes, pool.size * 2, options.signal, async (index) => {
      const result = await pool.run({ kind: 'synth', seed: options.seed, index });
      if (!result.ok) throw new Error(`demo sound ${index}: ${result.reason}`);
      if (result.kind !== 'synth') throw new Error('unexpected worker result');
      const { metadata } = result;
      const contentHash = contentHashOf(result.mp3);
      // A sound seeded before keeps its name; a new one takes the first free one for its title.
      const name = (await services.catalogWriter.findByContent(contentHash))?.name ?? (await names.claim(metadata));
      const { added } = await services.catalogWriter.put({
        contentHash,
        mp3: result.mp3,
        metadata: {
          name,
          description: metadata.description,
          tags: metadata.tags,
          category: metadata.category,
          license: 'CC0',
          sample: metadata.sample,
          // Loops from first frame to last: the MP3's frames, which its duration counts at its rate.
          loop: metadata.loop
            ? { startSample: 0, endSample: Math.round(result.measurements.duration * result.sampleRate) }
            : null,
        },
        measurements: result.measurements,
      });
      counts[added ? 'added' : 'updated']++;
      progress.advance();
    });
  } finally {
    await pool.close();
    progress.finish();
  }
  return counts;
}

/** Runs `work` over items with at most `limit` at once, in order of start; stops starting on abort. */
export async function forEachConcurrently<T>(
  items: T[],
  limit: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !signal?.aborted) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
