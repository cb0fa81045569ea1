/**
 * Linear discriminant analysis of labelled measures: the axes along which the families' means lie
 * far apart compared with how much sounds of one family (from every training source: several kits
 * and fonts) vary around their own mean. Each family counts the same whatever its number of
 * sounds; the spread within families is shrunk towards the identity (SHRINK) so that measures which
 * happen to be constant within the training families do not decide the answer alone. Used by
 * scripts/learn-similar-projection.ts (the projection the service ships) and by the evaluation,
 * which fits it again without each held-out source (docs/similar-sounds.md).
 */
/** Share of the identity mixed into the within-family spread (of z-scored measures). */
const SHRINK = 0.1;

export interface Projection {
  mean: number[];
  scale: number[];
  axes: number[][];
  spread: number[];
}

/**
 * The discriminant axes of `vectors` labelled `families`: the measures' mean and deviation (to
 * z-score them), then at most `limit` axes, best first, each scaled so that the spread within a
 * family along it is 1; `spread` is each axis's whole variance over the training sounds.
 */
export function learn(vectors: number[][], families: string[], limit: number): Projection {
  const D = vectors[0]!.length;
  const mean = meanOf(vectors);
  const scale = Array.from(
    { length: D },
    (_, d) => Math.sqrt(vectors.reduce((sum, vector) => sum + (vector[d]! - mean[d]!) ** 2, 0) / vectors.length) || 1,
  );
  const z = vectors.map((vector) => vector.map((value, d) => (value - mean[d]!) / scale[d]!));
  const names = [...new Set(families)].sort();
  const within = square(D);
  const between = square(D);
  const centres = names.map((name) => {
    const members = z.filter((_, i) => families[i] === name);
    const centre = meanOf(members);
    for (const vector of members)
      addOuter(
        within,
        vector.map((value, d) => value - centre[d]!),
        1 / (members.length * names.length),
      );
    return centre;
  });
  const grand = meanOf(centres);
  for (const centre of centres)
    addOuter(
      between,
      centre.map((value, d) => value - grand[d]!),
      1 / names.length,
    );
  for (let i = 0; i < D; i++) {
    for (let j = 0; j < D; j++) within[i]![j] = (1 - SHRINK) * within[i]![j]! + (i === j ? SHRINK : 0);
  }
  // within = L Lᵀ; the axes are L⁻ᵀ times the eigenvectors of L⁻¹ between L⁻ᵀ.
  const lower = cholesky(within);
  const whitened = square(D);
  const halfway = between.map((row) => solveLower(lower, row)); // rows of B L⁻ᵀ (B symmetric)
  for (let j = 0; j < D; j++) {
    const column = solveLower(
      lower,
      halfway.map((row) => row[j]!),
    );
    for (let i = 0; i < D; i++) whitened[i]![j] = column[i]!;
  }
  const { values, vectors: eigen } = jacobi(whitened);
  const order = values
    .map((value, i) => ({ value, i }))
    .sort((a, b) => b.value - a.value)
    .slice(0, Math.min(limit, names.length - 1));
  const axes = order.map(({ i }) =>
    solveUpper(
      lower,
      eigen.map((row) => row[i]!),
    ),
  );
  const spread = axes.map((axis) => {
    const projected = z.map((vector) => vector.reduce((sum, value, d) => sum + value * axis[d]!, 0));
    const m = projected.reduce((sum, value) => sum + value, 0) / projected.length;
    return projected.reduce((sum, value) => sum + (value - m) ** 2, 0) / projected.length;
  });
  return { mean, scale, axes, spread };
}

/** The mean of each number over `vectors` (all of one length). */
function meanOf(vectors: number[][]): number[] {
  return vectors[0]!.map((_, d) => vectors.reduce((sum, vector) => sum + vector[d]!, 0) / vectors.length);
}

function square(n: number): number[][] {
  return Array.from({ length: n }, () => new Array<number>(n).fill(0));
}

function addOuter(matrix: number[][], vector: number[], weight: number): void {
  for (let i = 0; i < vector.length; i++)
    for (let j = 0; j < vector.length; j++) matrix[i]![j] = matrix[i]![j]! + weight * vector[i]! * vector[j]!;
}

function cholesky(matrix: number[][]): number[][] {
  const n = matrix.length;
  const lower = square(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = matrix[i]![j]!;
      for (let k = 0; k < j; k++) sum -= lower[i]![k]! * lower[j]![k]!;
      lower[i]![j] = i === j ? Math.sqrt(sum) : sum / lower[j]![j]!;
    }
  }
  return lower;
}

/** x with L x = b. */
function solveLower(lower: number[][], b: number[]): number[] {
  const x: number[] = [];
  for (let i = 0; i < b.length; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= lower[i]![k]! * x[k]!;
    x.push(sum / lower[i]![i]!);
  }
  return x;
}

/** x with Lᵀ x = b. */
function solveUpper(lower: number[][], b: number[]): number[] {
  const n = b.length;
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = b[i]!;
    for (let k = i + 1; k < n; k++) sum -= lower[k]![i]! * x[k]!;
    x[i] = sum / lower[i]![i]!;
  }
  return x;
}

/** Eigenvalues and eigenvectors (as columns) of a symmetric matrix, by cyclic Jacobi rotations. */
function jacobi(input: number[][]): { values: number[]; vectors: number[][] } {
  const n = input.length;
  const a = input.map((row) => [...row]);
  const v = square(n);
  for (let i = 0; i < n; i++) v[i]![i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p]![q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p]![q]!) < 1e-30) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: a.map((row, i) => row[i]!), vectors: v };
}
