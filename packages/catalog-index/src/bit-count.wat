;; How many bits two bitmaps have set in common, 128 bits a step (WebAssembly's SIMD popcount), for
;; counting facets over what a search found and the bits of a query's bitmaps (bit-counter.ts).
;; JavaScript has no popcount instruction: its bit trick costs a dozen operations a word. Built into bit-count.wasm by
;; `npm run build:wasm` in the package; test/bit-counter.test.ts checks it against counting bit by
;; bit.
;;
;; common(a, b, words): the bits set both in the bitmap at byte offset `a` and the one at `b`,
;; `words` 32-bit words each (a multiple of 4; both offsets multiples of 16). The counts per byte
;; are summed in a vector of bytes for at most 31 steps (8 bits a byte a step: at most 248), then
;; widened into four 32-bit sums.
;;
;; listed(ids, count, bits): how many of the `count` 32-bit positions at byte offset `ids` have
;; their bit set in the bitmap at byte offset `bits` (a sparse posting counted over what was found).
(module
  (memory (export "memory") 1)
  (func (export "common") (param $a i32) (param $b i32) (param $words i32) (result i32)
    (local $end i32) (local $stop i32) (local $bytes v128) (local $sums v128)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $words) (i32.const 2))))
    (block $done
      (loop $run
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $stop (i32.add (local.get $a) (i32.const 496)))
        (if (i32.gt_u (local.get $stop) (local.get $end)) (then (local.set $stop (local.get $end))))
        (local.set $bytes (v128.const i64x2 0 0))
        (block $full
          (loop $step
            (br_if $full (i32.ge_u (local.get $a) (local.get $stop)))
            (local.set $bytes
              (i8x16.add (local.get $bytes)
                (i8x16.popcnt (v128.and (v128.load (local.get $a)) (v128.load (local.get $b))))))
            (local.set $a (i32.add (local.get $a) (i32.const 16)))
            (local.set $b (i32.add (local.get $b) (i32.const 16)))
            (br $step)))
        (local.set $sums
          (i32x4.add (local.get $sums)
            (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $bytes)))))
        (br $run)))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
      (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums)))))
  (func (export "listed") (param $ids i32) (param $count i32) (param $bits i32) (result i32)
    (local $end i32) (local $id i32) (local $sum i32)
    (local.set $end (i32.add (local.get $ids) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $ids) (local.get $end)))
        (local.set $id (i32.load (local.get $ids)))
        (local.set $sum
          (i32.add (local.get $sum)
            (i32.and
              (i32.shr_u
                (i32.load
                  (i32.add (local.get $bits) (i32.shl (i32.shr_u (local.get $id) (i32.const 5)) (i32.const 2))))
                (local.get $id))
              (i32.const 1))))
        (local.set $ids (i32.add (local.get $ids) (i32.const 4)))
        (br $next)))
    (local.get $sum)))
