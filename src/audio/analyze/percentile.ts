/**
 * Nearest-rank percentile: the smallest value with at least `percent` % of the values at or
 * below it. Uses quickselect on a copy, so an hour's 1 ms envelope (3.6 M values) costs O(n).
 */
export function nearestRankPercentile(values: Float32Array, percent: number): number {
  if (values.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil((percent / 100) * values.length));
  return selectKth(Float32Array.from(values), rank - 1);
}

/** Rearranges `a` so that a[k] is the k-th smallest (0-based) and returns it. Hoare partition. */
function selectKth(a: Float32Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = median3(a[lo]!, a[(lo + hi) >> 1]!, a[hi]!);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const swap = a[i]!;
        a[i] = a[j]!;
        a[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

function median3(a: number, b: number, c: number): number {
  if (a < b) return b < c ? b : Math.max(a, c);
  return a < c ? a : Math.max(b, c);
}
