import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobResult } from '../audio/jobs.ts';
import type { PictureSpec } from '../audio/pictures/index.ts';
import type { PlayedPart } from '../audio/played-audio.ts';
import type { RenditionSpec } from '../audio/render.ts';
import type { StoredSound } from '../catalog/sound.ts';
import { hasOutput, renditionKey, type RenditionChoice, type RenditionFacts } from './rendition-choice.ts';
import type { MediaStore } from './store.ts';
import { pictureKey, PICTURE_RESERVE_BYTES_PER_PIXEL } from './picture-key.ts';
import { RenderPool, RenderQueueFullError, RenderTimeoutError, type PoolJob } from './render-pool.ts';
import type { RenditionStore } from './rendition-store.ts';
import {
  DEFAULT_RENDER_TIME_LIMIT,
  estimateRenditionBytes,
  renderTimeLimitMs,
  renditionPrice,
  type RenderTimeLimit,
} from './rendition-work.ts';

// What a rendition is lives in rendition-choice.ts; named here too for the modules that make and serve them.
export {
  contentTypeOf,
  extensionOf,
  isRendition,
  RENDITION_LOUDNESS,
  renditionChoice,
  renditionKey,
  type OutputQuery,
  type RenditionChoice,
  type RenditionFacts,
} from './rendition-choice.ts';

/** Renditions waiting for a thread at most; past that a new one is refused (503) rather than queued. */
export const RENDITIONS_MAX_WAITING = 64;

/**
 * Served-times are written to the database every this many milliseconds, one statement per second
 * served in, rather than one per request: the eviction order is up to this late for what other
 * instances served, and exact to the second for what this one did.
 */
const SERVED_FLUSH_MS = 5_000;
/** Records read at a time when removing renditions to get under the bound. */
const EVICTION_BATCH = 100;

/**
 * How long a claim to make a rendition holds unless its maker renews it: how long the death of
 * an instance in the middle of making one delays the others at most. Renewed every
 * CLAIM_RENEW_MS while the rendition waits for a thread, is paid for and is made.
 */
const CLAIM_MS = 30_000;
const CLAIM_RENEW_MS = 10_000;
/** Reading another instance's claim: first after the shorter pause, then doubling up to the longer one. */
const CLAIM_POLL_MS = { first: 50, longest: 1_000 } as const;
/** Waiting for another instance's rendition longer than this answers "busy" (503, try again). */
const CLAIM_WAIT_MS = 120_000;

/** What the renditions service has done and holds: the counts a metrics endpoint will publish. */
export interface RenditionStats {
  /** Renditions asked for and not started yet (being paid for, or waiting for a thread), and other jobs waiting. */
  waiting: number;
  /** Being made on a thread now: renditions, pictures and other jobs (`runJob`). */
  making: number;
  /** Made by this process since it started. */
  made: number;
  /** Other jobs (packs' sprites: `runJob`) run on the same threads by this process since it started. */
  jobs: number;
  /** Removed by this process since it started, to stay under the bound. */
  removed: number;
  /** What every stored rendition occupies and the ones being made reserve, all instances together. */
  bytes: number;
}

/** What a rendition's maker paid: given back when the rendition is not made after all. */
export interface RenditionPayment {
  refund(): Promise<void>;
}

export interface RenditionRequest {
  /**
   * Called once, before a rendition that does not exist yet is made, by the request whose job it
   * is (the others for the same rendition wait for that one), with its price (rendition-work.ts):
   * it throws to refuse (quota). Its payment is refunded when the making fails, runs past its time
   * limit or is dropped after it was paid.
   */
  pay?: (price: number) => Promise<RenditionPayment>;
  /** Aborted when the client is gone: a job whose every client is gone is dropped before it starts. */
  signal?: AbortSignal;
}

/** The rendition's job ran past its time limit and was stopped (its payment given back). */
export class RenditionTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`making the rendition took longer than its limit of ${Math.round(limitMs / 1000)} s`);
  }
}

/** Too many renditions are being made and waiting: try again shortly. */
export class RenditionsBusyError extends Error {
  constructor() {
    super('too many renditions are being made; try again in a few seconds');
  }
}

/**
 * What making one stored file takes, worked out before it is made: the job for a thread, the
 * bytes its claim reserves, its price, its time limit, and the facts its record keeps.
 */
interface Making {
  job(sourcePath: string, outputPath: string): PoolJob;
  reserveBytes: number;
  /** Null: nothing to pay (a picture, charged as the request that asks for it). */
  price: number | null;
  limitMs: number;
  factsOf(result: Extract<JobResult, { ok: true }>): RenditionFacts;
}

interface Flight {
  done: Promise<RenditionFacts>;
  pay: RenditionRequest['pay'];
  /** True when its payment was refused: a request that did not make it tries with its own. */
  unpaid: boolean;
  /** Requests waiting for it whose clients are still there. */
  clients: number;
  /** True once its job holds a thread: from then on it runs to its end. */
  onThread: boolean;
  controller: AbortController;
}

export interface RenditionOptions {
  maxBytes: number;
  concurrency: number;
  clock: () => number;
  /** Failures of background work (writing served-times, removing files, refunds). */
  onError?: (error: unknown) => void;
  /** How long a job may run on its thread (DEFAULT_RENDER_TIME_LIMIT when absent). */
  timeLimit?: RenderTimeLimit;
}

/**
 * Renditions of the catalog's MP3s (audio/render.ts), made on the first request in a worker
 * thread and kept in the file store, named by content and parameters. Each stored one has a
 * record in the database (rendition-store.ts), written after its file, so a rendition with a
 * record is whole; the records give every instance the same total and the same
 * least-recently-served order. Bounded in every resource: at most `concurrency` made at once and
 * RENDITIONS_MAX_WAITING waiting (more are refused), each job for at most its time limit
 * (rendition-work.ts), at most `maxBytes` kept, scratch files included: a claim reserves its
 * output's estimated size in the record until the file is stored or given up (the least recently
 * served go first, and are made again on their next request). Requests for a rendition being
 * made wait for that one job: in this process its flight, across instances its claim in the
 * record, which one instance holds while it pays for and makes it and the others poll until its
 * record is stored (or the claim is given up or expires, and one of them takes it over).
 */
export class RenditionService {
  private pool: RenderPool | null = null;
  private readonly flights = new Map<string, Flight>();
  /** Renditions served since the last flush, and when (to the second). */
  private readonly servedSinceFlush = new Map<string, number>();
  private readonly flushTimer: NodeJS.Timeout;
  private evicting: Promise<void> = Promise.resolve();
  private made = 0;
  private removed = 0;
  /** Jobs of `runJob` under way (getting their sources, waiting or running), and those done. */
  private jobs = 0;
  private jobsDone = 0;

  constructor(
    private readonly files: MediaStore,
    private readonly store: RenditionStore,
    private readonly options: RenditionOptions,
  ) {
    this.flushTimer = setInterval(
      () => this.flushServed().catch((error) => this.options.onError?.(error)),
      SERVED_FLUSH_MS,
    );
    this.flushTimer.unref();
  }

  /** The file key of the rendition and its facts, made now if it is not stored. */
  async get(
    sound: StoredSound,
    choice: RenditionChoice,
    request: RenditionRequest = {},
  ): Promise<{ fileKey: string; facts: RenditionFacts }> {
    const fileKey = renditionKey(sound.contentHash, choice);
    const stored = await this.storedFacts(fileKey);
    if (stored) {
      this.servedSinceFlush.set(fileKey, Math.floor(this.options.clock() / 1000) * 1000);
      return { fileKey, facts: stored };
    }
    return { fileKey, facts: await this.waitFor(fileKey, sound, this.renditionMaking(sound, choice), request) };
  }

  /**
   * The file key of one of the sound's pictures (audio/pictures/), made now if it is not stored:
   * made and kept like a rendition, in the same record and under the same bound, on the same
   * threads. It has no price of its own (`pay` is not called): the request asking is the charge.
   */
  async picture(
    sound: StoredSound,
    spec: PictureSpec,
    request: Pick<RenditionRequest, 'signal'> = {},
  ): Promise<string> {
    const fileKey = pictureKey(sound.contentHash, spec);
    if (await this.storedFacts(fileKey)) {
      this.servedSinceFlush.set(fileKey, Math.floor(this.options.clock() / 1000) * 1000);
      return fileKey;
    }
    const making: Making = {
      job: (sourcePath, outputPath) => ({ kind: 'picture', sourcePath, outputPath, spec }),
      reserveBytes: spec.width * spec.height * PICTURE_RESERVE_BYTES_PER_PIXEL,
      price: null,
      // Decoding the whole sound is most of the work, as for a rendition of it.
      limitMs: renderTimeLimitMs(sound, {}, this.options.timeLimit ?? DEFAULT_RENDER_TIME_LIMIT),
      factsOf: () => ({ duration: sound.duration, loudness: { integrated_lufs: null, true_peak_db: null } }),
    };
    await this.waitFor(fileKey, sound, making, request);
    return fileKey;
  }

  /**
   * Runs a job that reads these stored files and keeps nothing in the store (a pack's sprite:
   * packs/sprite.ts) on the renditions' threads, under their bounds: it waits in the same line
   * (RenditionsBusyError when that is full), runs for at most the time limit of
   * `weightedSeconds` of output (RenditionTimeoutError past it, its thread stopped) and stops when
   * `signal` aborts. The files are local copies for its time (a download for a bucket). What the
   * job writes is the caller's; a job that fails is an Error naming its reason.
   */
  async runJob(
    fileKeys: string[],
    job: (sourcePaths: string[]) => PoolJob,
    weightedSeconds: number,
    signal: AbortSignal,
  ): Promise<Extract<JobResult, { ok: true }>> {
    signal.throwIfAborted();
    this.pool ??= new RenderPool(this.options.concurrency, RENDITIONS_MAX_WAITING);
    const pool = this.pool;
    const copies = await Promise.allSettled(fileKeys.map((fileKey) => this.files.localCopy(fileKey)));
    const sources = copies.flatMap((copy) => (copy.status === 'fulfilled' ? [copy.value] : []));
    this.jobs++;
    try {
      const failed = copies.find((copy) => copy.status === 'rejected');
      if (failed) throw failed.reason;
      const limit = this.options.timeLimit ?? DEFAULT_RENDER_TIME_LIMIT;
      const limitMs = Math.round(limit.floorMs + limit.msPerWeightedSecond * weightedSeconds);
      const result = await pool.run(job(sources.map((source) => source.path)), signal, limitMs).catch((error) => {
        if (error instanceof RenderQueueFullError) throw new RenditionsBusyError();
        if (error instanceof RenderTimeoutError) throw new RenditionTimeoutError(error.limitMs);
        throw error;
      });
      if (!result.ok) throw new Error(`the job failed: ${result.reason}`);
      this.jobsDone++;
      return result;
    } finally {
      this.jobs--;
      await Promise.all(sources.map((source) => source.release()));
    }
  }

  /** Whether this rendition is stored now (what a pack's price counts: packs/service.ts). */
  async has(sound: StoredSound, choice: RenditionChoice): Promise<boolean> {
    return (await this.storedFacts(renditionKey(sound.contentHash, choice))) !== null;
  }

  async stats(): Promise<RenditionStats> {
    const making = this.pool?.busy ?? 0;
    return {
      waiting: this.flights.size + this.jobs - making,
      making,
      made: this.made,
      jobs: this.jobsDone,
      removed: this.removed,
      bytes: await this.store.totalBytes(),
    };
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    // Waiting ones stop polling; the claims of those being made are given up as their jobs end.
    const flights = [...this.flights.values()];
    for (const flight of flights) flight.controller.abort(new Error('the service is closing'));
    await this.pool?.close();
    this.pool = null;
    await Promise.allSettled(flights.map((flight) => flight.done));
    await this.evicting;
    await this.flushServed();
  }

  /** Facts of a rendition that is whole: recorded, and its file there (an emptied folder makes it again). */
  private async storedFacts(fileKey: string): Promise<RenditionFacts | null> {
    const facts = await this.store.facts(fileKey);
    return facts && (await this.files.size(fileKey)) !== null ? facts : null;
  }

  /** Joins the job making this rendition, or starts one when there is room. */
  private async waitFor(
    fileKey: string,
    sound: StoredSound,
    making: Making,
    request: RenditionRequest,
  ): Promise<RenditionFacts> {
    let flight = this.flights.get(fileKey);
    if (!flight) {
      if (this.flights.size >= this.options.concurrency + RENDITIONS_MAX_WAITING) throw new RenditionsBusyError();
      flight = this.start(fileKey, sound, making, request.pay);
    }
    const current = flight;
    current.clients++;
    let left = false;
    const leave = () => {
      left = true;
      // A job already on a thread runs to its end: it is paid for, and stored for the next request.
      if (--current.clients === 0 && !current.onThread) {
        current.controller.abort(new Error('every client is gone'));
      }
    };
    request.signal?.addEventListener('abort', leave, { once: true });
    if (request.signal?.aborted) leave();
    try {
      return await current.done;
    } catch (error) {
      if (current.unpaid && current.pay !== request.pay && !left) return this.waitFor(fileKey, sound, making, request);
      throw error;
    } finally {
      request.signal?.removeEventListener('abort', leave);
      if (!left) current.clients--;
    }
  }

  private start(fileKey: string, sound: StoredSound, making: Making, pay: RenditionRequest['pay']): Flight {
    const flight: Flight = {
      done: Promise.resolve(null!),
      pay,
      unpaid: false,
      clients: 0,
      onThread: false,
      controller: new AbortController(),
    };
    flight.done = (async () => {
      const owner = randomUUID();
      const madeElsewhere = await this.claimOrAwait(fileKey, owner, making.reserveBytes, flight.controller.signal);
      if (madeElsewhere) return madeElsewhere;
      // Paid only once claimed: the request whose instance makes the rendition is the one charged.
      const renewing = setInterval(() => {
        this.store
          .renew(fileKey, owner, new Date(this.options.clock() + CLAIM_MS))
          .catch((error) => this.options.onError?.(error));
      }, CLAIM_RENEW_MS);
      renewing.unref();
      let payment: RenditionPayment | undefined;
      try {
        try {
          if (making.price !== null) payment = await pay?.(making.price);
        } catch (error) {
          flight.unpaid = true;
          throw error;
        }
        return await this.make(fileKey, sound, making, flight);
      } catch (error) {
        // Paid and not made (failed, stopped at its limit, or dropped before it started): the payer gets it back.
        await payment?.refund().catch((refundError: unknown) => this.options.onError?.(refundError));
        // Refused, dropped or failed: another request, here or on another instance, may claim it at once.
        await this.store.release(fileKey, owner).catch((releaseError) => this.options.onError?.(releaseError));
        throw error;
      } finally {
        clearInterval(renewing);
      }
    })().finally(() => this.flights.delete(fileKey));
    this.flights.set(fileKey, flight);
    return flight;
  }

  /**
   * Claims the making of this rendition for `owner` (null), or waits while another instance holds
   * the claim, polling its record with growing pauses: the rendition's facts once that instance
   * stored it. A claim given up or expired is taken over; after CLAIM_WAIT_MS of waiting the
   * request is answered "busy", and `signal` (every client gone) stops the wait.
   */
  private async claimOrAwait(
    fileKey: string,
    owner: string,
    reserveBytes: number,
    signal: AbortSignal,
  ): Promise<RenditionFacts | null> {
    const deadline = performance.now() + CLAIM_WAIT_MS;
    for (let pause: number = CLAIM_POLL_MS.first; ; pause = Math.min(2 * pause, CLAIM_POLL_MS.longest)) {
      signal.throwIfAborted();
      const record = await this.store.state(fileKey);
      if (record?.kind === 'stored') {
        if ((await this.files.size(fileKey)) !== null) return record.facts;
        // Recorded but its file gone (an emptied folder): the record goes, and it is made again.
        await this.store.remove(fileKey);
      }
      const now = this.options.clock();
      if (record?.kind !== 'claimed' || record.expiresAt < now) {
        if (await this.store.claim(fileKey, owner, new Date(now), new Date(now + CLAIM_MS), reserveBytes)) return null;
      }
      if (performance.now() > deadline) throw new RenditionsBusyError();
      await sleep(pause, undefined, { signal });
    }
  }

  private renditionMaking(sound: StoredSound, choice: RenditionChoice): Making {
    return {
      job: (sourcePath, outputPath) => ({ kind: 'render', sourcePath, outputPath, spec: specOf(sound, choice) }),
      reserveBytes: estimateRenditionBytes(sound, choice),
      price: renditionPrice(sound, choice),
      limitMs: renderTimeLimitMs(sound, choice, this.options.timeLimit ?? DEFAULT_RENDER_TIME_LIMIT),
      factsOf: (result) => {
        if (result.kind !== 'render') throw new Error(`rendition of ${sound.id}: unexpected ${result.kind} result`);
        return { duration: result.measurements.duration, loudness: result.measurements.loudness };
      },
    };
  }

  private async make(fileKey: string, sound: StoredSound, making: Making, flight: Flight): Promise<RenditionFacts> {
    this.pool ??= new RenderPool(this.options.concurrency, RENDITIONS_MAX_WAITING);
    // The claim reserved the output's size: room is made for it before a scratch file is written.
    await this.makeRoom(fileKey);
    // The stored MP3 itself for a folder, a download for a bucket: released once the job is over.
    const source = await this.files.localCopy(sound.fileKey);
    const outputPath = this.files.temporaryPath();
    const limitMs = making.limitMs;
    const result = await this.pool
      .run(making.job(source.path, outputPath), flight.controller.signal, limitMs, () => {
        flight.onThread = true;
      })
      .catch(async (error: unknown) => {
        // A job refused, dropped, failed or stopped leaves no scratch file behind.
        await rm(outputPath, { force: true });
        if (error instanceof RenderQueueFullError) throw new RenditionsBusyError();
        if (error instanceof RenderTimeoutError) throw new RenditionTimeoutError(error.limitMs);
        throw error;
      })
      .finally(() => source.release());
    if (!result.ok) {
      await rm(outputPath, { force: true });
      throw new Error(`rendition of ${sound.id} failed: ${result.reason}`);
    }
    const facts = making.factsOf(result);
    await this.files.putFile(fileKey, outputPath, true);
    await this.store.add(fileKey, (await this.files.size(fileKey)) ?? 0, facts, new Date(this.options.clock()));
    this.made++;
    // The one just made is what its request serves.
    await this.makeRoom(fileKey);
    return facts;
  }

  /** One eviction at a time in this process. */
  private makeRoom(keep: string): Promise<void> {
    this.evicting = this.evicting.then(() => this.evict(keep)).catch((error) => this.options.onError?.(error));
    return this.evicting;
  }

  /**
   * Removes the least recently served renditions until they and the claims' reservations fit under the bound:
   * the record first, then the file, so no instance serves a record whose file is going. A
   * request that finds the file gone under it makes the rendition again.
   */
  private async evict(keep: string): Promise<void> {
    await this.flushServed();
    let total = await this.store.totalBytes();
    while (total > this.options.maxBytes) {
      const oldest = (await this.store.leastRecentlyServed(EVICTION_BATCH)).filter(
        (rendition) => rendition.fileKey !== keep,
      );
      if (oldest.length === 0) return;
      for (const rendition of oldest) {
        if (total <= this.options.maxBytes) return;
        // Another instance may have removed it first: only the one whose delete found the record removes the file.
        if (await this.store.remove(rendition.fileKey)) {
          await this.files.remove(rendition.fileKey);
          this.removed++;
        }
        total -= rendition.bytes;
      }
      total = await this.store.totalBytes();
    }
  }

  private async flushServed(): Promise<void> {
    if (this.servedSinceFlush.size === 0) return;
    const bySecond = new Map<number, string[]>();
    for (const [fileKey, at] of this.servedSinceFlush) bySecond.set(at, [...(bySecond.get(at) ?? []), fileKey]);
    this.servedSinceFlush.clear();
    for (const [at, fileKeys] of bySecond) await this.store.served(fileKeys, new Date(at));
  }
}

/** The part of the sound a rendition plays: what its file's tags place their points by (media/tags). */
export function playedPartOf(sound: Pick<StoredSound, 'timing'>, choice: RenditionChoice): PlayedPart {
  const part: PlayedPart = {};
  const { onset_ms: onset, tail_ms: tail } = sound.timing;
  if (choice.trim && onset !== null && tail !== null && tail > onset) part.trim = { startMs: onset, endMs: tail };
  if (choice.maxSeconds !== undefined) part.maxMs = choice.maxSeconds * 1000;
  return part;
}

function specOf(sound: StoredSound, choice: RenditionChoice): RenditionSpec {
  const spec: RenditionSpec = playedPartOf(sound, choice);
  if (choice.loudness !== undefined) spec.loudness = choice.loudness;
  if (hasOutput(choice)) {
    spec.output = {
      format: choice.format ?? 'mp3',
      ...(choice.sampleRate !== undefined && { sampleRate: choice.sampleRate }),
      ...(choice.channels !== undefined && { channels: choice.channels }),
      ...(choice.bitDepth !== undefined && { bitDepth: choice.bitDepth }),
    };
  }
  return spec;
}
