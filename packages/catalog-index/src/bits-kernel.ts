import { readFileSync } from 'node:fs';
import { PAGE } from './distance-kernel.ts';

// Tuned constant, measured as the package's README says.
/** Below this many words JavaScript counts a bitmap sooner than it is copied into the kernel. */
export const KERNEL_FROM = 1024;
/** What counting a word costs in the kernel, copies included, against a word counted in JavaScript. */
export const KERNEL_WORD_COST = 0.2;

/** What counting a bitmap of `words` words costs, in words counted by JavaScript. */
export function countCost(words: number): number {
  return words >= KERNEL_FROM ? words * KERNEL_WORD_COST : words;
}

const kernel = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(new URL('./bits.wasm', import.meta.url))))
  .exports as {
  memory: WebAssembly.Memory;
  ones(at: number, bytes: number): number;
  onesInBoth(a: number, b: number, bytes: number): number;
};
let memory = new Uint32Array(kernel.memory.buffer);

/**
 * The ones of the first `words` words of `a` (and of `b`, ANDed), counted by the WebAssembly kernel
 * (bits.wat) 16 bytes a step: a bitmap is copied into its memory, and the copy and the count take
 * a fraction of counting word by word in JavaScript (README, "Tuned constants"). The words past
 * `words` up to a whole step are zero.
 */
export function onesOf(a: Uint32Array, words: number, b?: Uint32Array): number {
  const stepWords = (words + 3) & ~3;
  const need = (b === undefined ? 1 : 2) * stepWords * 4;
  if (memory.byteLength < need) {
    kernel.memory.grow(Math.ceil((need - memory.byteLength) / PAGE));
    memory = new Uint32Array(kernel.memory.buffer);
  }
  copyIn(a, words, 0, stepWords);
  if (b === undefined) return kernel.ones(0, stepWords * 4);
  copyIn(b, words, stepWords, stepWords);
  return kernel.onesInBoth(0, stepWords * 4, stepWords * 4);
}

function copyIn(bits: Uint32Array, words: number, at: number, stepWords: number): void {
  memory.set(words === bits.length ? bits : bits.subarray(0, words), at);
  memory.fill(0, at + words, at + stepWords);
}
