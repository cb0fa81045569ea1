import { open, type FileHandle } from 'node:fs/promises';

/** A bad or oversized tag: reported as a note on the file, never a reason to refuse its audio. */
export class TagError extends Error {}

/** The most one tag (an ID3 tag, a comment block, an iXML chunk) may take; cover art can be megabytes. */
export const MAX_TAG_BYTES = 1 << 20;
/** All tag reading of one file together; a file of a million tiny chunks stops here, not after an hour. */
const MAX_BYTES_PER_FILE = 8 << 20;
export const MAX_CHUNKS = 10_000;

/** Reads parts of a file by offset, within a byte budget: tag readers never read a file whole. */
export class TagFile {
  private spent = 0;

  private constructor(private readonly handle: FileHandle, readonly size: number) {}

  static async open(filePath: string): Promise<TagFile> {
    const handle = await open(filePath, 'r');
    try {
      return new TagFile(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Up to `length` bytes at `offset` (fewer at the end of the file). */
  async read(offset: number, length: number): Promise<Uint8Array> {
    const wanted = Math.max(0, Math.min(length, this.size - offset));
    if (wanted === 0) return new Uint8Array(0);
    this.spent += wanted;
    if (this.spent > MAX_BYTES_PER_FILE) throw new TagError('tags take more than 8 MiB; the rest were not read');
    const bytes = new Uint8Array(wanted);
    const { bytesRead } = await this.handle.read(bytes, 0, wanted, offset);
    return bytes.subarray(0, bytesRead);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}
