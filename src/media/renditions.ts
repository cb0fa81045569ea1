import { readFile } from 'node:fs/promises';
import type { RenditionSpec } from '../audio/render.ts';
import type { Loudness } from '../audio/types.ts';
import type { StoredSound } from '../catalog/sound.ts';
import { WorkerPool } from '../ingest/worker-pool.ts';
import type { FileStore } from './file-store.ts';

/** The bounds of `loudness` on the stream and download endpoints (clamped, never refused). */
export const RENDITION_LOUDNESS = { min: -40, max: -5 } as const;

/** A rendition as a signed URL names it: a target loudness (one decimal) and/or trimming. */
export interface RenditionChoice {
  loudness?: number;
  trim?: boolean;
  /** Cut to at most this many seconds, with a short fade-out (MCP previews; never in a signed URL). */
  maxSeconds?: number;
}

/** What a rendition file is, measured on it: what the media route states in its headers. */
export interface RenditionFacts {
  duration: number;
  loudness: Loudness;
}

/**
 * Renditions of the catalog's MP3s (audio/render.ts), made on the first request in a worker
 * thread and kept in the file store beside the sounds, named by content and parameters, so each
 * is made once for every instance that shares the folder. The facts measured on the file are
 * kept beside it; they are written last, so a rendition whose facts exist is whole. Requests for
 * a rendition being made wait for that one job.
 */
export class RenditionService {
  private pool: WorkerPool | null = null;
  private readonly making = new Map<string, Promise<RenditionFacts>>();

  constructor(private readonly files: FileStore) {}

  /** The file key of the rendition and its facts, made now if it does not exist yet. */
  async get(sound: StoredSound, choice: RenditionChoice): Promise<{ fileKey: string; facts: RenditionFacts }> {
    const fileKey = renditionKey(sound.contentHash, choice);
    const facts = (await this.readFacts(fileKey)) ?? (await this.makeOnce(fileKey, sound, choice));
    return { fileKey, facts };
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }

  private makeOnce(fileKey: string, sound: StoredSound, choice: RenditionChoice): Promise<RenditionFacts> {
    let making = this.making.get(fileKey);
    if (!making) {
      making = this.make(fileKey, sound, choice).finally(() => this.making.delete(fileKey));
      this.making.set(fileKey, making);
    }
    return making;
  }

  private async make(fileKey: string, sound: StoredSound, choice: RenditionChoice): Promise<RenditionFacts> {
    const spec: RenditionSpec = {};
    if (choice.loudness !== undefined) spec.loudness = choice.loudness;
    const { onset_ms: onset, tail_ms: tail } = sound.timing;
    if (choice.trim && onset !== null && tail !== null && tail > onset) spec.trim = { startMs: onset, endMs: tail };
    if (choice.maxSeconds !== undefined) spec.maxMs = choice.maxSeconds * 1000;
    // One thread: renditions are made once each, and the request threads stay free.
    this.pool ??= new WorkerPool(1);
    const outputPath = this.files.temporaryPath();
    const result = await this.pool.run({ kind: 'render', sourcePath: this.files.localPath(sound.fileKey), outputPath, spec });
    if (!result.ok) throw new Error(`rendition of ${sound.id} failed: ${result.reason}`);
    if (result.kind !== 'render') throw new Error(`rendition of ${sound.id}: unexpected ${result.kind} result`);
    const facts: RenditionFacts = { duration: result.measurements.duration, loudness: result.measurements.loudness };
    await this.files.putFile(fileKey, outputPath, true);
    await this.files.put(factsKey(fileKey), new TextEncoder().encode(JSON.stringify(facts)));
    return facts;
  }

  /** The facts of a rendition that is whole on disk: its facts and its file (emptied folders make it again). */
  private async readFacts(fileKey: string): Promise<RenditionFacts | null> {
    try {
      const facts = JSON.parse(await readFile(this.files.localPath(factsKey(fileKey)), 'utf8')) as RenditionFacts;
      return (await this.files.size(fileKey)) === null ? null : facts;
    } catch {
      return null;
    }
  }
}

/** `renditions/ab/<content hash>-l-16.0-trim-max10.mp3`: one file per content and parameters. */
export function renditionKey(contentHash: string, choice: RenditionChoice): string {
  const parts = [contentHash];
  if (choice.loudness !== undefined) parts.push(`l${choice.loudness.toFixed(1)}`);
  if (choice.trim) parts.push('trim');
  if (choice.maxSeconds !== undefined) parts.push(`max${choice.maxSeconds}`);
  return `renditions/${contentHash.slice(0, 2)}/${parts.join('-')}.mp3`;
}

function factsKey(fileKey: string): string {
  return fileKey.replace(/\.mp3$/, '.json');
}

/** A rendition choice as signed URLs carry it: loudness to one decimal, trim only when true. */
export function renditionChoice(loudness: number | undefined, trim: boolean | undefined): RenditionChoice {
  return {
    ...(loudness !== undefined && { loudness: Math.round(loudness * 10) / 10 }),
    ...(trim === true && { trim: true }),
  };
}

/** Whether a choice asks for anything other than the catalog's own file. */
export function isRendition(choice: RenditionChoice): boolean {
  return choice.loudness !== undefined || choice.trim === true || choice.maxSeconds !== undefined;
}
