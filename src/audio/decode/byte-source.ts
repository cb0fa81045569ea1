/**
 * Reads bytes from a whole buffer or from an async stream of chunks (a file read stream, an HTTP
 * body) through one small interface, so every decoder has a single code path and streaming input
 * never needs more memory than the bytes a decoder asks to look at.
 */
export type ByteInput = Uint8Array | AsyncIterable<Uint8Array>;

const EMPTY = new Uint8Array(0);

export class ByteSource {
  /** Bytes consumed so far (read or skipped). */
  position = 0;
  private pending: Uint8Array = EMPTY;
  private readonly chunks: AsyncIterator<Uint8Array> | null;
  private ended: boolean;

  constructor(input: ByteInput) {
    if (input instanceof Uint8Array) {
      this.pending = input;
      this.chunks = null;
      this.ended = true;
    } else {
      this.chunks = input[Symbol.asyncIterator]();
      this.ended = false;
    }
  }

  /** Up to `count` bytes from the current position without consuming them (fewer only at the end). */
  async peek(count: number): Promise<Uint8Array> {
    if (this.pending.length < count) {
      // Gather first and join once: joining per chunk would copy quadratically.
      const parts = [this.pending];
      let total = this.pending.length;
      for (let chunk = await this.nextChunk(); chunk; chunk = total < count ? await this.nextChunk() : null) {
        parts.push(chunk);
        total += chunk.length;
      }
      if (parts.length > 1) this.pending = concatAll(parts, total);
    }
    return this.pending.subarray(0, Math.min(count, this.pending.length));
  }

  /** Consumes and returns up to `count` bytes (fewer only at the end). */
  async read(count: number): Promise<Uint8Array> {
    const bytes = await this.peek(count);
    this.consume(bytes.length);
    return bytes;
  }

  /** Consumes up to `count` bytes without keeping them; returns how many were skipped. */
  async skip(count: number): Promise<number> {
    let skipped = 0;
    while (skipped < count) {
      if (this.pending.length === 0) this.pending = (await this.nextChunk()) ?? EMPTY;
      if (this.pending.length === 0) break;
      const step = Math.min(count - skipped, this.pending.length);
      this.consume(step);
      skipped += step;
    }
    return skipped;
  }

  /** The next bytes that are available (at most `max`), or null at the end of the input. */
  async readSome(max: number): Promise<Uint8Array | null> {
    if (this.pending.length === 0) this.pending = (await this.nextChunk()) ?? EMPTY;
    if (this.pending.length === 0) return null;
    const bytes = this.pending.subarray(0, Math.min(max, this.pending.length));
    this.consume(bytes.length);
    return bytes;
  }

  /** Lets a stream's producer release its resources when a decoder stops early. */
  async close(): Promise<void> {
    this.pending = EMPTY;
    if (this.chunks && !this.ended) {
      this.ended = true;
      await this.chunks.return?.();
    }
  }

  private consume(count: number): void {
    this.pending = this.pending.subarray(count);
    this.position += count;
  }

  /** The next non-empty chunk of a stream input, or null at its end. */
  private async nextChunk(): Promise<Uint8Array | null> {
    if (this.ended || !this.chunks) return null;
    for (;;) {
      const next = await this.chunks.next();
      if (next.done) {
        this.ended = true;
        return null;
      }
      const chunk: unknown = next.value;
      if (!(chunk instanceof Uint8Array)) throw new TypeError('audio input chunks must be Uint8Array');
      if (chunk.length > 0) return chunk;
    }
  }
}

export function concatAll(parts: readonly Uint8Array[], total = parts.reduce((n, p) => n + p.length, 0)): Uint8Array {
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
