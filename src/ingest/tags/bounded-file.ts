import { open } from 'node:fs/promises';
import { EndOfStreamError, FileTokenizer, type IGetToken, type IReadChunkOptions } from 'strtok3';

/** A bad or oversized tag: reported as a note on the file, never a reason to refuse its audio. */
export class TagError extends Error {}

/** The most one tag (an ID3 tag, a comment block, an iXML chunk) may take; cover art can be megabytes. */
export const MAX_TAG_BYTES = 1 << 20;
/**
 * All tag reading of one file together: a file of a million tiny chunks stops here, not after an
 * hour, and so does an Ogg comment packet spread over many small pages (each under the 1 MiB).
 */
const MAX_BYTES_PER_FILE = 2 << 20;

/**
 * The file as music-metadata reads it (its parsers take a strtok3 tokenizer), within two bounds:
 * the tokenizer refuses a buffer larger than 1 MiB before it allocates one (so a tag that claims
 * gigabytes costs nothing), and every byte read or peeked is counted against the file's budget
 * (so a comment spread over thousands of Ogg pages stops at the budget). Seeks past audio are free.
 */
export class BoundedTagFile extends FileTokenizer {
  private spent = 0;
  /** A read ran past the end of the file: music-metadata stops quietly there, we say so in a note. */
  ranPastEnd = false;

  static async openBounded(filePath: string, mimeType: string): Promise<BoundedTagFile> {
    const handle = await open(filePath, 'r');
    try {
      const { size } = await handle.stat();
      return new BoundedTagFile(handle, { maxBufferSize: MAX_TAG_BYTES, fileInfo: { path: filePath, size, mimeType } });
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  override readToken<T>(token: IGetToken<T>, position?: number): Promise<T> {
    return this.noticingTheEnd(super.readToken(token, position));
  }

  override peekToken<T>(token: IGetToken<T>, position?: number): Promise<T> {
    return this.noticingTheEnd(super.peekToken(token, position));
  }

  override readBuffer(buffer: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    this.spend(options?.length ?? buffer.length);
    return this.noticingTheEnd(super.readBuffer(buffer, options));
  }

  override peekBuffer(buffer: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    this.spend(options?.length ?? buffer.length);
    return this.noticingTheEnd(super.peekBuffer(buffer, options));
  }

  /** Up to `length` bytes at `offset` (fewer at the end of the file), for our own readers. */
  async bytesAt(offset: number, length: number): Promise<Uint8Array> {
    const wanted = Math.max(0, Math.min(length, this.fileInfo.size - offset));
    if (wanted > MAX_TAG_BYTES) throw new TagError(`a tag of ${wanted} bytes is larger than 1 MiB`);
    const bytes = new Uint8Array(wanted);
    const read = await this.peekBuffer(bytes, { position: offset, mayBeLess: true });
    return bytes.subarray(0, read);
  }

  private spend(bytes: number): void {
    this.spent += bytes;
    if (this.spent > MAX_BYTES_PER_FILE) throw new TagError('tags take more than 2 MiB; the rest were not read');
  }

  private async noticingTheEnd<T>(read: Promise<T>): Promise<T> {
    try {
      return await read;
    } catch (error) {
      if (error instanceof EndOfStreamError) this.ranPastEnd = true;
      throw error;
    }
  }
}
