/** Seeded uniform generator (mulberry32), so every run sees the same "random" vectors. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Descriptor weights shaped like the service's (114 numbers): a few learned axes that count most,
 * then groups of measures, each group's weight shared among its numbers.
 */
export const WEIGHTS: readonly number[] = [
  5.2,
  2.6,
  1.2,
  1.2,
  1,
  0.66,
  0.88,
  0.71,
  0.64,
  0.46,
  0.36,
  0.34,
  0.28,
  ...[10, 12, 6, 12, 6, 6, 5, 6, 30, 2, 6].flatMap((size) => Array.from({ length: size }, () => 1 / size)),
];
