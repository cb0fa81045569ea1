import { createHash } from 'node:crypto';
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import { parseBuffer } from 'music-metadata';
import yazl from 'yazl';
import type { Loudness, StoredSound } from '../catalog/sound.ts';
import {
  extensionOf,
  isRendition,
  type RenditionChoice,
  type RenditionRequest,
  type RenditionService,
} from '../media/renditions.ts';
import type { MediaSigner } from '../media/signing.ts';
import { MediaMissingError, type MediaStore } from '../media/store.ts';
import { deliveredFile, readDelivered, tagsForDelivery } from '../media/tagged-file.ts';
import { packFileNames, type PackNaming } from './file-names.ts';
import { LICENSE_TEXT, manifestCsv, manifestJson, type ManifestRow } from './manifest.ts';
import { whenThreadFree } from './busy-wait.ts';
import { addSpriteEntries } from './sprite-entries.ts';
import type { SpriteSources } from './sprite.ts';

/**
 * What writing a pack's ZIP reads: the stored files, the renditions made on the way, the time of
 * its entries, and the base of the sound URLs its files' tags name.
 */
export interface PackStreamServices {
  files: Pick<MediaStore, 'read' | 'size'>;
  signer: Pick<MediaSigner, 'publicBase'>;
  renditions: Pick<RenditionService, 'get' | 'runJob'>;
  clock: () => number;
}

/** Bytes of a file's beginning kept to read its sample rate and channels from its header. */
const HEAD_BYTES = 64 * 1024;

export interface PackZipOptions {
  /**
   * Write ZIP64 records for every entry and the end even where the sizes do not need them: the
   * path a pack past 4 GiB or 65,535 entries takes, tested on a small pack (test/packs/zip64.test.ts).
   */
  forceZip64?: boolean;
  /** Pays for a sound's rendition when this ZIP's request is the one making it (fetch.ts); absent, nothing is paid. */
  pay?: (sound: StoredSound) => RenditionRequest['pay'];
  /** How the files are named (file-names.ts); `<name-slug>-<id>.<ext>` by default. */
  naming?: PackNaming;
  /** Adds the sounds' audio sprite (sprite.ts), paid by `pay` when given. */
  sprite?: { pay: SpriteSources['pay'] };
}

/**
 * The ZIP of a pack, written while it is read (yazl): the sounds one after another, each opened
 * only when its turn comes and piped with backpressure, so memory holds a chunk or two whatever
 * the pack's size. Entries are stored, not deflated: MP3 (and the other compressed formats) do
 * not shrink. Each file's SHA-256, byte count and header are taken from the bytes on their way
 * into the ZIP, so the manifests, which describe the files as delivered, come after them. Every
 * format is stored: WAV would shrink by a tenth or so under deflate, not worth a core per pack and
 * a size no estimate can tell. yazl switches to ZIP64 records where sizes or offsets need it.
 * Aborting `signal` (the client left) stops reading and making files.
 */
export function streamPack(
  sounds: StoredSound[],
  choice: RenditionChoice,
  services: PackStreamServices,
  signal: AbortSignal,
  options: PackZipOptions = {},
): Readable {
  const zip = new yazl.ZipFile();
  const zip64 = { forceZip64Format: options.forceZip64 === true };
  const output = zip.outputStream as Readable;
  const rows: ManifestRow[] = [];
  const now = new Date(services.clock());
  // The manifest's format is the choice's (the catalog's files are MP3); the extension is that format's.
  const format = choice.format ?? 'mp3';
  const extension = extensionOf(choice);
  const names = packFileNames(sounds, extension, options.naming);
  let current: Readable | null = null;
  const fail = (error: Error) => {
    current?.destroy();
    output.destroy(error);
  };
  zip.on('error', fail);
  signal.addEventListener('abort', () => fail(new Error('the client left')), { once: true });

  for (const [index, sound] of sounds.entries()) {
    const file = names[index]!;
    zip.addReadStreamLazy(file, { compress: false, mtime: now, ...zip64 }, (callback) => {
      openDelivered(sound, choice, services, signal, options.pay?.(sound)).then(
        ({ stream, duration, loudness }) => {
          // The client left while this file was being made or opened (yazl sends an entry's header
          // first): nothing will read it, and a paused stream would hold its file open.
          if (signal.aborted) {
            stream.destroy();
            return callback(new Error('the client left'), null as unknown as Readable);
          }
          current = stream;
          const meter = new DeliveredBytes((digest) =>
            rows.push({
              id: sound.id,
              name: sound.name,
              file,
              format,
              sample_rate: digest.sampleRate,
              channels: digest.channels,
              duration,
              integrated_lufs: loudness.integrated_lufs,
              true_peak_db: loudness.true_peak_db,
              timing: sound.timing,
              category: sound.category,
              tags: sound.tags,
              sha256: digest.sha256,
              bytes: digest.bytes,
              source_url: null,
            }),
          );
          // A file that breaks off mid-way fails the whole ZIP: a client must not take a short file for a whole one.
          pipeline(stream, meter, (error) => error && fail(error));
          callback(null, meter);
        },
        (error: Error) => callback(error, null as unknown as Readable),
      );
    });
  }
  if (options.sprite) {
    const entry = { mtime: now, ...zip64 };
    addSpriteEntries(zip, output, sounds, names, choice, services.renditions, signal, options.sprite.pay, entry);
  }
  // Called when their turn comes, after every sound's bytes went through: the rows are complete.
  zip.addReadStreamLazy('manifest.json', { compress: true, mtime: now, ...zip64 }, (callback) =>
    callback(null, Readable.from([manifestJson(rows, now)])),
  );
  zip.addReadStreamLazy('manifest.csv', { compress: true, mtime: now, ...zip64 }, (callback) =>
    callback(null, Readable.from([manifestCsv(rows)])),
  );
  zip.addBuffer(Buffer.from(LICENSE_TEXT), 'LICENSE.txt', { compress: true, mtime: now, ...zip64 });
  // No archive comment: the types ask for one, yazl writes none for an empty one.
  zip.end({ ...zip64, comment: '' });
  return output;
}

/**
 * The bytes of a sound as this pack delivers it (its file, or its rendition, made now if need be)
 * and what they measure.
 */
async function openDelivered(
  sound: StoredSound,
  choice: RenditionChoice,
  services: PackStreamServices,
  signal: AbortSignal,
  pay: RenditionRequest['pay'],
): Promise<{ stream: Readable; duration: number; loudness: Loudness }> {
  if (!isRendition(choice))
    return {
      stream: await tagged(services, sound, choice, sound.fileKey),
      duration: sound.duration,
      loudness: sound.loudness,
    };
  for (let attempt = 1; ; attempt++) {
    try {
      // Paid by this fetch (fetch.ts) when its request is the one making the rendition.
      const rendition = await whenThreadFree(
        () => services.renditions.get(sound, choice, { ...(pay && { pay }), signal }),
        signal,
      );
      return { stream: await tagged(services, sound, choice, rendition.fileKey), ...rendition.facts };
    } catch (error) {
      // Removed to keep renditions under their bound between being found and being read: made again once.
      if (error instanceof MediaMissingError && attempt === 1 && !signal.aborted) continue;
      throw error;
    }
  }
}

/** The stored file with the sound's tags, as the media route delivers it (media/tagged-file.ts). */
async function tagged(
  services: PackStreamServices,
  sound: StoredSound,
  choice: RenditionChoice,
  fileKey: string,
): Promise<Readable> {
  const size = await services.files.size(fileKey);
  if (size === null) throw new MediaMissingError(fileKey);
  const tags = await tagsForDelivery(services.files, sound, choice, services.signer.publicBase());
  return readDelivered(
    services.files,
    fileKey,
    await deliveredFile(services.files, fileKey, size, choice.format ?? 'mp3', tags),
  );
}

interface Digest {
  sha256: string;
  bytes: number;
  sampleRate: number | null;
  channels: number | null;
}

/**
 * Passes a file's bytes on unchanged while hashing and counting them and keeping the first
 * HEAD_BYTES for its header.
 */
class DeliveredBytes extends Transform {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private readonly head: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly done: (digest: Digest) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (this.headBytes < HEAD_BYTES) {
      this.head.push(chunk.subarray(0, HEAD_BYTES - this.headBytes));
      this.headBytes += Math.min(chunk.length, HEAD_BYTES - this.headBytes);
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const sha256 = this.hash.digest('hex');
    headerFacts(Buffer.concat(this.head)).then((facts) => {
      this.done({ sha256, bytes: this.bytes, ...facts });
      callback();
    }, callback);
  }
}

/**
 * Sample rate and channels from a file's first bytes (music-metadata reads the format's header);
 * null when unreadable.
 */
async function headerFacts(head: Buffer): Promise<{ sampleRate: number | null; channels: number | null }> {
  try {
    const { format } = await parseBuffer(head, undefined, { duration: false, skipCovers: true });
    return { sampleRate: format.sampleRate ?? null, channels: format.numberOfChannels ?? null };
  } catch {
    return { sampleRate: null, channels: null };
  }
}
