import type { FileHandle } from 'node:fs/promises';

/** Appends to an open file and patches bytes already written (headers whose sizes are known at the end). */
export class FileWriter {
  private position = 0;

  constructor(private readonly file: FileHandle) {}

  get bytesWritten(): number {
    return this.position;
  }

  async append(bytes: Uint8Array): Promise<void> {
    await this.writeAt(bytes, this.position);
    this.position += bytes.length;
  }

  async writeAt(bytes: Uint8Array, position: number): Promise<void> {
    for (let written = 0; written < bytes.length; ) {
      const { bytesWritten } = await this.file.write(bytes, written, bytes.length - written, position + written);
      written += bytesWritten;
    }
  }
}

/** A float sample as a signed integer of `bits` bits: rounded, and held to the integer range (no wrap-around). */
export function toInteger(sample: number, bits: number): number {
  const scale = 2 ** (bits - 1);
  const value = Math.round(sample * scale);
  return value >= scale ? scale - 1 : Math.max(value, -scale);
}
