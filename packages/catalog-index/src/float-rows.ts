import { distanceKernel, PAGE } from './distance-kernel.ts';

type Squares = (rows: number, count: number, stride: number, target: number, out: number) => void;

/**
 * Rows of 32-bit numbers in WebAssembly memory, and the squared distances from one vector to runs
 * of them, four numbers at a time (distance.wat's `squares`): the cells' centroids (cells.ts),
 * which every similar-sounds query ranks, a few hundred of them.
 *
 * The memory holds the target (one row), then each row's last distance (`distances`, a 32-bit
 * float per row), then the rows, each padded with zeros to a multiple of 16 bytes. Rows are only
 * appended.
 */
export class FloatRows {
  /** Bytes per row, padding included. */
  private readonly stride: number;
  private readonly memory: WebAssembly.Memory;
  private readonly squares: Squares;
  size = 0;
  private capacity = 0;
  private rowsAt = 0;
  /** Each row's distance from the target, as last measured (replaced when the memory grows). */
  distances = new Float32Array(0);
  private floats = new Float32Array(0);

  constructor(
    readonly dimensions: number,
    capacity: number,
  ) {
    this.stride = Math.ceil(dimensions / 4) * 16;
    const instance = new WebAssembly.Instance(distanceKernel);
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.squares = instance.exports.squares as Squares;
    this.reserve(Math.max(capacity, 16));
  }

  /** Appends rows: `values` holds `dimensions` numbers per row. Returns the first one's number. */
  append(values: Float32Array): number {
    const count = values.length / this.dimensions;
    const first = this.size;
    if (first + count > this.capacity) this.reserve(Math.max(2 * this.capacity, first + count));
    const d = this.dimensions;
    for (let row = 0; row < count; row++) {
      // The padding must be zeros: the kernel reads whole 16-byte runs.
      const start = (this.rowsAt + (first + row) * this.stride) / 4;
      this.floats.set(values.subarray(row * d, (row + 1) * d), start);
      this.floats.fill(0, start + d, start + this.stride / 4);
    }
    this.size += count;
    return first;
  }

  /** Sets the vector distances are measured from: `dimensions` numbers of `source` from `at`. */
  setTarget(source: Float32Array, at: number): void {
    this.floats.set(source.subarray(at, at + this.dimensions), 0);
  }

  /** Measures rows [first, first + count) from the target, into `distances`. */
  measure(first: number, count: number): void {
    if (first < 0 || count < 0 || first + count > this.size)
      throw new RangeError(`rows ${first} to ${first + count} of ${this.size}`);
    this.squares(this.rowsAt + first * this.stride, count, this.stride, 0, this.stride + first * 4);
  }

  /** Room for `capacity` rows: the distances grow, so the rows move up. */
  private reserve(capacity: number): void {
    const distancesBytes = Math.ceil((capacity * 4) / 16) * 16;
    const rowsAt = this.stride + distancesBytes;
    const bytes = rowsAt + capacity * this.stride;
    const more = Math.ceil(bytes / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (more > 0) this.memory.grow(more);
    const all = new Uint8Array(this.memory.buffer);
    all.copyWithin(rowsAt, this.rowsAt, this.rowsAt + this.size * this.stride);
    this.rowsAt = rowsAt;
    this.capacity = capacity;
    this.floats = new Float32Array(this.memory.buffer);
    this.distances = new Float32Array(this.memory.buffer, this.stride, capacity);
  }
}
