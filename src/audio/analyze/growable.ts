/** Append-only typed arrays that double their capacity: bounded per-block or per-ms logs. */

export class GrowableFloat64 {
  private data = new Float64Array(256);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableFloat32 {
  private data = new Float32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }

  view(): Float32Array {
    return this.data.subarray(0, this.length);
  }
}
